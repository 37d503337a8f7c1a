"""Drives the admin console in a real headless Chromium (selenium).

Usage: console_browser.py CONSOLE_URL ADMIN PASSWORD USERNAME SCREENSHOT_DIR
Signs in, finds USERNAME, revokes the newest of its sessions, sends it a password reset mail,
opens the audit log and the status page; screenshots every page at desktop (1280x900) and phone
(390x844) sizes in English and Japanese. Prints one JSON object with what it saw. Exits
non-zero on failure.
"""
import json
import os
import shutil
import sys

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

SIZES = (("desktop", 1280, 900), ("phone", 390, 844))


def start_chromium(downloads=None):
    """A headless Chromium at desktop size, through Debian's chromedriver; files it downloads go
    to `downloads` without asking. Every console browser script starts it this way."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--hide-scrollbars"):
        options.add_argument(flag)
    if downloads:
        options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    return driver


def run(main):
    """Runs a script's `main`; the test shows standard output only, so a failure's traceback goes
    there, and the exit status is 1."""
    try:
        main()
    except Exception:
        import traceback
        traceback.print_exc(file=sys.stdout)
        sys.exit(1)


def main():
    base, admin, password, username, shots_dir = sys.argv[1:6]
    os.makedirs(shots_dir, exist_ok=True)
    driver = start_chromium()
    wait = WebDriverWait(driver, 30)
    shots = []
    seen = {}

    def shoot(name, language):
        for label, width, height in SIZES:
            driver.set_window_size(width, height)
            path = os.path.join(shots_dir, f"{name}-{language}-{label}.png")
            driver.save_screenshot(path)
            shots.append(path)
        driver.set_window_size(1280, 900)

    def new_notice(previous):
        # The page before the POST may show a notice too: wait for the next page's, and ignore the
        # old page's node going stale while it is replaced.
        def read(d):
            found = d.find_elements(By.CLASS_NAME, "notice")
            text = found[0].text if found else None
            return text if text and text != previous else False
        return WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(read)

    def h1():
        return wait.until(ec.presence_of_element_located((By.TAG_NAME, "h1"))).text

    try:
        for language in ("ja", "en"):
            driver.get(base + "/login?lang=" + language)
            seen["login_" + language] = h1()
            shoot("login", language)
        # Sign in with the keyboard alone: type, Tab to the next field, Enter submits.
        name = driver.find_element(By.ID, "name")
        name.send_keys(admin + Keys.TAB)
        driver.switch_to.active_element.send_keys(password + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.ID, "q")))
        cookie = next(c for c in driver.get_cookies() if c["name"] == "rooftop_console")
        seen["cookie"] = {"httpOnly": cookie.get("httpOnly"), "sameSite": cookie.get("sameSite"), "path": cookie.get("path"),
                          "secure": cookie.get("secure")}
        driver.find_element(By.ID, "q").send_keys(username + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.LINK_TEXT, username)))
        shoot("users", "en")
        driver.find_element(By.LINK_TEXT, username).click()
        wait.until(ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), username))
        seen["sessions_before"] = len(driver.find_elements(By.CSS_SELECTOR, "form[action*='/sessions/'] button"))
        shoot("user", "en")
        driver.find_element(By.CSS_SELECTOR, "form[action*='/sessions/'] button").click()
        seen["revoke_notice"] = new_notice(None)
        seen["sessions_after"] = len(driver.find_elements(By.CSS_SELECTOR, "form[action*='/sessions/'] button"))
        driver.find_element(By.CSS_SELECTOR, "form[action$='/reset'] button").click()
        seen["reset_notice"] = new_notice(seen["revoke_notice"])
        confirm = driver.find_element(By.ID, "confirm")
        button = driver.find_element(By.CSS_SELECTOR, "[data-confirm-button]")
        seen["delete_enabled_before_typing"] = button.is_enabled()
        confirm.send_keys(username)
        seen["delete_enabled_after_typing"] = button.is_enabled()
        driver.get(base + "/audit")
        seen["audit_title"] = h1()
        seen["audit_rows"] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "tbody tr")]
        shoot("audit", "en")
        driver.get(base + "/status")
        seen["status_title"] = h1()
        shoot("status", "en")
        user_url = None
        driver.get(base + "/users?lang=ja&q=" + username)
        seen["users_ja"] = h1()
        shoot("users", "ja")
        user_url = driver.find_element(By.LINK_TEXT, username).get_attribute("href")
        driver.get(user_url)
        h1()
        seen["user_ja_sessions"] = driver.find_element(By.ID, "sessions-h").text
        shoot("user", "ja")
        driver.get(base + "/audit")
        seen["audit_ja"] = h1()
        shoot("audit", "ja")
        driver.get(base + "/status")
        seen["status_ja"] = h1()
        shoot("status", "ja")
        seen["screenshots"] = shots
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
