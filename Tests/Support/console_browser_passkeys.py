"""Drives the removal of one of a user's passkeys in a real headless Chromium (selenium).

Usage: console_browser_passkeys.py CONSOLE_URL ADMIN PASSWORD USER_ID USERNAME PASSKEY_NAME SCREENSHOT_DIR
Signs in, opens the user's page, reads the passkeys section, follows the "Remove" link of the
passkey named PASSKEY_NAME, checks that the button stays disabled until USERNAME is typed
exactly, removes it and reads the page after; screenshots the user's passkeys section and the
confirmation page in Japanese and English. Prints one JSON object with what it saw. Exits
non-zero on failure.
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
    base, admin, password, user_id, username, passkey, shots_dir = sys.argv[1:8]
    driver = start_chromium()
    screens = Screens(driver, shots_dir)
    wait = WebDriverWait(driver, 30)
    seen = {}

    def rows():
        """Each passkey row's cells' text (the name cell includes the clone warning)."""
        return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")[:4]]
                for row in driver.find_elements(By.CSS_SELECTOR, "table.passkeys tbody tr")]

    try:
        driver.get(base + "/login?lang=en")
        driver.find_element(By.ID, "name").send_keys(admin + Keys.TAB)
        driver.switch_to.active_element.send_keys(password + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.ID, "q")))
        driver.get(base + "/users/" + user_id + "?lang=ja")
        wait.until(ec.presence_of_element_located((By.ID, "passkeys-h")))
        seen["section_ja"] = driver.find_element(By.ID, "passkeys-h").text
        screens.shoot("user-passkeys", "ja", "passkeys-h")
        driver.get(base + "/users/" + user_id + "?lang=en")
        wait.until(ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), username))
        seen["rows_before"] = rows()
        screens.shoot("user-passkeys", "en", "passkeys-h")
        link = driver.find_element(By.XPATH, "//table[contains(@class,'passkeys')]//tr[td[1][starts-with(., '%s')]]//a" % passkey)
        seen["link_label"] = link.text
        link.click()
        # The confirmation page, once it is the document (not the page the click left): its
        # heading read again if the page is still being replaced when first found.
        wait.until(ec.url_contains("/remove"))
        wait.until(ec.presence_of_element_located((By.ID, "confirm")))
        seen["heading"] = WebDriverWait(driver, 30, ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda d: d.find_element(By.TAG_NAME, "h1").text)
        seen["passkey_heading"] = driver.find_element(By.ID, "remove-passkey-h").text
        button = driver.find_element(By.CSS_SELECTOR, "[data-confirm-button]")
        seen["enabled_empty"] = button.is_enabled()
        field = driver.find_element(By.ID, "confirm")
        field.send_keys(username[:-1])
        seen["enabled_partial"] = button.is_enabled()
        field.send_keys(username[-1])
        seen["enabled_typed"] = button.is_enabled()
        screens.shoot("user-passkey-remove", "en", "remove-passkey-h")
        button.click()
        wait.until(ec.presence_of_element_located((By.CLASS_NAME, "notice")))
        seen["notice"] = driver.find_element(By.CLASS_NAME, "notice").text
        seen["rows_after"] = rows()
        screens.report(seen)
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
