"""Drives the removal of a user's second factor in a real headless Chromium (selenium).

Usage: console_browser_second_factor.py CONSOLE_URL ADMIN PASSWORD USER_ID USERNAME SCREENSHOT_DIR
Signs in, opens the user's page, reads the second factor's state, follows "Remove second
factor", checks that the button stays disabled until USERNAME is typed exactly, removes it and
reads the page after; screenshots the confirmation page at desktop and phone sizes in Japanese
and English. Prints one JSON object with what it saw. Exits non-zero on failure.
"""
import json
import os
import sys

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from console_browser import Screens, start_chromium, run  # noqa: E402


def main():
    base, admin, password, user_id, username, shots_dir = sys.argv[1:7]
    driver = start_chromium()
    screens = Screens(driver, shots_dir)
    wait = WebDriverWait(driver, 30)
    seen = {}

    def state():
        return driver.find_element(By.XPATH, "//dt[.='Second factor']/following-sibling::dd[1]").text

    try:
        driver.get(base + "/login?lang=en")
        driver.find_element(By.ID, "name").send_keys(admin + Keys.TAB)
        driver.switch_to.active_element.send_keys(password + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.ID, "q")))
        driver.get(base + "/users/" + user_id + "/remove-second-factor?lang=ja")
        seen["heading_ja"] = wait.until(ec.presence_of_element_located((By.TAG_NAME, "h1"))).text
        screens.shoot("user-second-factor", "ja", "remove-factor-h")
        driver.get(base + "/users/" + user_id + "?lang=en")
        wait.until(ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), username))
        seen["state_before"] = state()
        driver.find_element(By.CSS_SELECTOR, "form[action$='/remove-second-factor'] button").click()
        # The confirmation page, once it is the document (not the page the click left): its
        # heading read again if the page is still being replaced when first found.
        wait.until(ec.url_contains("/remove-second-factor"))
        wait.until(ec.presence_of_element_located((By.ID, "confirm")))
        seen["heading"] = WebDriverWait(driver, 30, ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda d: d.find_element(By.TAG_NAME, "h1").text)
        button = driver.find_element(By.CSS_SELECTOR, "[data-confirm-button]")
        seen["enabled_empty"] = button.is_enabled()
        field = driver.find_element(By.ID, "confirm")
        field.send_keys(username[:-1])
        seen["enabled_partial"] = button.is_enabled()
        field.send_keys(username[-1])
        seen["enabled_typed"] = button.is_enabled()
        screens.shoot("user-second-factor", "en", "remove-factor-h")
        button.click()
        wait.until(ec.presence_of_element_located((By.CLASS_NAME, "notice")))
        seen["notice"] = driver.find_element(By.CLASS_NAME, "notice").text
        seen["state_after"] = state()
        seen["removal_offered_after"] = bool(driver.find_elements(By.CSS_SELECTOR, "form[action$='/remove-second-factor']"))
        screens.report(seen)
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
