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


def start_chromium(downloads=None, flags=()):
    """A headless Chromium at desktop size, through Debian's chromedriver; files it downloads go
    to `downloads` without asking; `flags` are more command-line switches. Every console browser
    script starts it this way."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--hide-scrollbars", *flags):
        options.add_argument(flag)
    if downloads:
        options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    return driver


# Whether the page itself scrolls sideways (a wide table must scroll inside its own box).
PAGE_OVERFLOWS = "return document.documentElement.scrollWidth > document.documentElement.clientWidth"
# What sticks out when it does: up to five elements outside a `.scroll` box, and the widths.
WIDE_ELEMENTS = (
    "var w = document.documentElement.clientWidth; return Array.from(document.querySelectorAll('body *'))"
    ".filter(function (e) { return e.getBoundingClientRect().right > w + 1 && !(e.parentElement && e.parentElement.closest('.scroll')); }).slice(0, 5)"
    ".map(function (e) { return e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right); })"
    ".concat([document.documentElement.scrollWidth, w]);")


class Screens:
    """Screenshots of the current page at each of SIZES, named `<prefix><name>-<language>-<size>.png`,
    and at phone size whether the page scrolls sideways. `report(seen)` adds them to what a
    script prints: `screenshots` (paths), `page_overflow` ("name-language" -> bool) and `wide`
    (what sticks out, for the failure message). Every console browser script shoots this way."""

    def __init__(self, driver, directory, prefix=""):
        os.makedirs(directory, exist_ok=True)
        self.driver, self.directory, self.prefix = driver, directory, prefix
        self.paths, self.overflow, self.wide = [], {}, {}

    def shoot(self, name, language, anchor=None, full_page=False):
        """`anchor`: the id of an element to scroll to first; `full_page`: the window as tall as
        the page, so the shot shows all of it."""
        driver = self.driver
        for label, width, height in SIZES:
            driver.set_window_size(width, height)
            if anchor:
                driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", anchor)
            if label == "phone":
                key = f"{name}-{language}"
                self.overflow[key] = driver.execute_script(PAGE_OVERFLOWS)
                if self.overflow[key]:
                    self.wide[key] = driver.execute_script(WIDE_ELEMENTS)
            if full_page:
                full = driver.execute_script("return document.documentElement.scrollHeight")
                driver.set_window_size(width, max(height, full + 140))
            path = os.path.join(self.directory, f"{self.prefix}{name}-{language}-{label}.png")
            driver.save_screenshot(path)
            self.paths.append(path)
        driver.set_window_size(1280, 900)

    def report(self, seen):
        seen["screenshots"] = self.paths
        seen["page_overflow"] = self.overflow
        seen["wide"] = self.wide


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
    driver = start_chromium()
    screens = Screens(driver, shots_dir)
    shoot = screens.shoot
    wait = WebDriverWait(driver, 30)
    seen = {}

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
        screens.report(seen)
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
