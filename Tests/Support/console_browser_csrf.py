"""Login CSRF by cookie tossing against the console, in a real headless Chromium (selenium).

Usage: console_browser_csrf.py PORT ATTACKER PASSWORD VICTIM VICTIM_PASSWORD
The console runs at http://127.0.0.1:PORT/console. The attack, as a sibling site would make it:
the attacker fetches the sign-in page for themselves (a real form token and its cookie), then
serves, from another port of the same host (the same site, another origin), a page that sets
that cookie in the victim's browser and auto-submits the sign-in form with the attacker's name
and password. Had it worked, the victim's browser would now be signed in to the attacker's
admin account.

Then the honest path: Chromium, told that `console.test` is 127.0.0.1 (a name that is not
loopback, so the page must warn about plain http), signs the victim in with the keyboard.
Prints one JSON object with what it saw; exits non-zero on failure.
"""
import http.cookiejar
import json
import re
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from console_browser import start_chromium, run


def attacker_form_token(console):
    """The attacker's own sign-in form: its token (the form's hidden csrf) and login cookie."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    html = opener.open(console + "/login").read().decode()
    token = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    cookie = next(c.value for c in jar if c.name == "rooftop_console_login")
    return token, cookie


def attacker_site(console, token, cookie, name, password):
    """A page on another port that tosses the cookie and posts the attacker's sign-in."""
    page = f"""<!doctype html><html><body>
<form id="f" method="post" action="{console}/login">
<input type="hidden" name="csrf" value="{token}"><input type="hidden" name="name" value="{name}">
<input type="hidden" name="password" value="{password}"></form>
<script>document.getElementById('f').submit()</script></body></html>""".encode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            # Cookies ignore ports: this lands on the console's host too.
            self.send_header("Set-Cookie", f"rooftop_console_login={cookie}; Path=/console")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    port, attacker, attacker_password, victim, victim_password = sys.argv[1:6]
    console = f"http://127.0.0.1:{port}/console"
    seen = {}
    token, cookie = attacker_form_token(console)
    seen["token_matches_cookie"] = token == cookie
    site = attacker_site(console, token, cookie, attacker, attacker_password)
    driver = start_chromium(flags=("--host-resolver-rules=MAP console.test 127.0.0.1",))
    wait = WebDriverWait(driver, 30)
    try:
        driver.get(f"http://127.0.0.1:{site.server_address[1]}/")
        wait.until(ec.presence_of_element_located((By.TAG_NAME, "h1")))
        seen["attack_landed_on"] = driver.current_url
        seen["attack_page"] = driver.find_element(By.TAG_NAME, "main").text
        seen["attack_session_cookie"] = any(c["name"] == "rooftop_console" for c in driver.get_cookies())
        driver.get(console + "/users")
        seen["after_attack_url"] = driver.current_url
        seen["after_attack_signed_in_as_attacker"] = attacker in driver.page_source and "/login" not in driver.current_url

        honest = f"http://console.test:{port}/console"
        driver.delete_all_cookies()
        driver.get(honest + "/login")
        notices = driver.find_elements(By.CLASS_NAME, "notice")
        seen["plain_http_notice"] = notices[0].text if notices else None
        driver.find_element(By.ID, "name").send_keys(victim + Keys.TAB)
        driver.switch_to.active_element.send_keys(victim_password + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.ID, "q")))
        seen["honest_url"] = driver.current_url
        seen["honest_signed_in"] = victim in driver.page_source
        driver.get(console + "/login")
        local = driver.find_elements(By.CLASS_NAME, "notice")
        seen["loopback_notice"] = local[0].text if local else None
    finally:
        driver.quit()
        site.shutdown()
    print(json.dumps(seen))


if __name__ == "__main__":
    run(main)
