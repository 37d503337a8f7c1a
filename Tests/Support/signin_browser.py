"""Drives the browser sign-in in a real headless Chromium (selenium), as an app's browser would.

Usage: signin_browser.py START_URL SUBJECT SCREENSHOT_PREFIX
Listens on an ephemeral 127.0.0.1 port (the app's loopback redirect, RFC 8252), opens
START_URL with `redirect_uri=http://127.0.0.1:<port>/callback` added, fills the provider's
sign-in form with SUBJECT and submits it; the server's callback then redirects the browser to
the loopback listener. Prints one JSON object: {"provider_title", "redirect_uri", "callback",
"screenshots"}, where "callback" is the query string the listener received. Exits non-zero on failure.
"""
import json
import shutil
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import quote, urlparse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

received = {}
arrived = threading.Event()


class Listener(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/callback":
            received["query"] = url.query
            arrived.set()
        page = b"<!DOCTYPE html><html><head><title>Signed in</title></head><body><h1>You can close this window.</h1></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)


def main():
    start, subject, prefix = sys.argv[1:4]
    listener = HTTPServer(("127.0.0.1", 0), Listener)
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    redirect_uri = f"http://127.0.0.1:{listener.server_address[1]}/callback"
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"):
        options.add_argument(flag)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(20)
    shots = []
    try:
        driver.get(start + "&redirect_uri=" + quote(redirect_uri, safe=""))
        wait = WebDriverWait(driver, 10)
        field = wait.until(ec.presence_of_element_located((By.ID, "subject")))
        title = driver.find_element(By.TAG_NAME, "h1").text
        shots.append(prefix + "-1-provider.png")
        driver.save_screenshot(shots[-1])
        field.send_keys(subject)
        driver.find_element(By.ID, "allow").click()
        if not arrived.wait(15):
            raise RuntimeError("the loopback redirect never arrived; the browser is at " + driver.current_url)
        WebDriverWait(driver, 10).until(lambda d: d.current_url.startswith(redirect_uri))
        shots.append(prefix + "-2-back.png")
        driver.save_screenshot(shots[-1])
        print(json.dumps({"provider_title": title, "redirect_uri": redirect_uri, "callback": received["query"], "screenshots": shots}))
    finally:
        driver.quit()
        listener.shutdown()


if __name__ == "__main__":
    try:
        main()
    except Exception:
        import traceback
        with open(sys.argv[3] + ".log", "w") as log:
            traceback.print_exc(file=log)
        raise
