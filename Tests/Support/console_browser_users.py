"""Drives the console's users pages in a real headless Chromium (selenium).

Usage: console_browser_users.py CONSOLE_URL ADMIN PASSWORD PREFIX USERNAME CLASS SCREENSHOT_DIR
Signs in, finds USERNAME by typing PREFIX, opens it, edits its `nickname` field, and views CLASS
as the user; screenshots each page at desktop (1280x900) and phone (390x844) sizes in English
and Japanese. Prints one JSON object with what it saw. Exits non-zero on failure.
"""
import json
import os
import sys

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from console_browser import Screens, start_chromium, run  # noqa: E402


def main():
    base, admin, password, prefix, username, class_name, shots_dir = sys.argv[1:8]
    driver = start_chromium()
    screens = Screens(driver, shots_dir)
    shoot = screens.shoot
    wait = WebDriverWait(driver, 30)
    seen = {}

    def notice():
        return WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
            lambda d: (d.find_elements(By.CLASS_NAME, "notice") or [None])[0].text if d.find_elements(By.CLASS_NAME, "notice") else False)

    def viewed():
        return [code.text for code in driver.find_elements(By.CSS_SELECTOR, "code.oid")]

    try:
        driver.get(base + "/login?lang=en")
        driver.find_element(By.ID, "name").send_keys(admin + Keys.TAB)
        driver.switch_to.active_element.send_keys(password + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.ID, "q")))
        driver.find_element(By.ID, "q").send_keys(prefix + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.LINK_TEXT, username)))
        seen["found"] = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "tbody td:first-child a")]
        shoot("user-search", "en")
        driver.find_element(By.LINK_TEXT, username).click()
        wait.until(ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), username))
        user_url = driver.current_url
        seen["owned"] = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ul.owned a")]
        field = driver.find_element(By.ID, "edit-nickname")
        field.clear()
        field.send_keys("Nina")
        driver.find_element(By.CSS_SELECTOR, "form.user-edit button[type=submit]").click()
        seen["edit_notice"] = notice()
        seen["nickname_after"] = driver.find_element(By.ID, "edit-nickname").get_attribute("value")
        shoot("user-edit", "en", "edit-h")
        shoot("user-owned", "en", "owned-h")
        Select(driver.find_element(By.ID, "viewas-class")).select_by_value(class_name)
        driver.find_element(By.CSS_SELECTOR, "form[action$='/view-as'] button").click()
        wait.until(ec.presence_of_element_located((By.ID, "va-where")))
        seen["viewed"] = viewed()
        shoot("user-viewas", "en", "va-results")
        driver.get(base + "/users?lang=ja&q=" + prefix)
        seen["search_ja"] = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "label[for=q]"))).text
        shoot("user-search", "ja")
        driver.get(user_url)
        seen["edit_ja"] = wait.until(ec.presence_of_element_located((By.ID, "edit-h"))).text
        shoot("user-edit", "ja", "edit-h")
        shoot("user-owned", "ja", "owned-h")
        driver.get(user_url + "/view-as?class=" + class_name)
        seen["viewas_ja"] = wait.until(ec.presence_of_element_located((By.TAG_NAME, "h1"))).text
        seen["viewed_ja"] = viewed()
        shoot("user-viewas", "ja", "va-results")
        screens.report(seen)
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
