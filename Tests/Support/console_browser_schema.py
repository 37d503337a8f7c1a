"""Drives the console's schema page in a real headless Chromium (selenium).

Usage: console_browser_schema.py CONSOLE_URL ADMIN PASSWORD CLASS SCREENSHOT_DIR
Signs in, opens CLASS's schema page, adds the field `score` (Number) with the form, then in the
permissions grid lets only signed-in users create; screenshots the schema pages at desktop and
phone sizes in English and Japanese. Prints one JSON object with what it saw; exits non-zero on
failure.
"""
import json
import os
import sys

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from console_browser import Screens, start_chromium, run  # noqa: E402


def main():
    base, admin, password, class_name, shots_dir = sys.argv[1:6]
    driver = start_chromium()
    screens = Screens(driver, shots_dir)

    def shoot(name, language):
        # The whole page, grid included.
        screens.shoot(name, language, full_page=True)

    wait = WebDriverWait(driver, 30)
    seen = {}

    def submit(selector):
        # Wait for the next page: the old one's notice may read the same.
        old = driver.find_element(By.TAG_NAME, "main")
        driver.find_element(By.CSS_SELECTOR, selector).click()
        wait.until(lambda d: is_stale(old))
        return notice()

    def is_stale(element):
        # Chromium may answer a node of the page just replaced with "does not belong to the
        # document" (a plain WebDriverException) rather than a stale-element error: gone either way.
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True

    def notice():
        def read(d):
            found = d.find_elements(By.CSS_SELECTOR, ".notice, .error")
            return found[0].text if found else False
        return WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(read)

    def h1():
        return wait.until(ec.presence_of_element_located((By.TAG_NAME, "h1"))).text

    try:
        driver.get(base + "/login?lang=en")
        driver.find_element(By.ID, "name").send_keys(admin)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait.until(ec.presence_of_element_located((By.ID, "q")))
        driver.get(base + "/schema")
        seen["list_title"] = h1()
        shoot("schema-list", "en")
        driver.find_element(By.LINK_TEXT, class_name).click()
        seen["class_title"] = h1()
        # Add a field with the form: name, type, submit.
        driver.find_element(By.ID, "f-name").send_keys("score")
        Select(driver.find_element(By.ID, "f-type")).select_by_visible_text("Number")
        seen["field_notice"] = submit("form[action$='/fields'] button[type=submit]")
        seen["field_rows"] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#fields-h ~ .scroll tbody tr")]
        # Permissions: create only for signed-in users.
        public_create = driver.find_element(By.NAME, "create:*")
        if public_create.is_selected():
            public_create.click()
        driver.find_element(By.NAME, "create:auth").click()
        seen["permissions_notice"] = submit("form[action$='/permissions'] button[type=submit]")
        seen["in_words"] = [item.text for item in driver.find_elements(By.CSS_SELECTOR, ".in-words li")]
        seen["create_auth_checked"] = driver.find_element(By.NAME, "create:auth").is_selected()
        shoot("schema-class", "en")
        driver.get(base + "/schema/" + class_name + "?lang=ja")
        seen["in_words_ja"] = [item.text for item in driver.find_elements(By.CSS_SELECTOR, ".in-words li")]
        seen["permissions_ja"] = driver.find_element(By.ID, "clp-h").text
        shoot("schema-class", "ja")
        driver.get(base + "/schema")
        seen["list_title_ja"] = h1()
        shoot("schema-list", "ja")
        screens.report(seen)
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
