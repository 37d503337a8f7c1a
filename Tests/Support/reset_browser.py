"""Drives the hosted password-reset page in a real headless Chromium (selenium).

Usage: reset_browser.py URL BAD_PASSWORD GOOD_PASSWORD SCREENSHOT_PREFIX LANGUAGE
Opens URL, submits BAD_PASSWORD and reads the error shown under the field, then submits
GOOD_PASSWORD and reads the result page. Before submitting it reads the rules shown under the
field, the hidden username field, the heading's computed `word-break`, and clicks the
show-password toggle (the field's type after one click, and after two). Saves a PNG of each step.
Prints one JSON object: {"form_title", "rules", "username_field", "word_break", "revealed_type",
"hidden_again_type", "toggle_pressed", "error", "result_title", "screenshots"}. Exits non-zero on
failure.
"""
import json
import shutil
import sys

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait


def main():
    url, bad, good, prefix, language = sys.argv[1:6]
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844",
                 "--lang=" + language):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(20)
    shots = []
    try:
        driver.get(url)
        wait = WebDriverWait(driver, 10)
        field = wait.until(ec.presence_of_element_located((By.ID, "new_password")))
        form_title = driver.find_element(By.TAG_NAME, "h1").text
        rules = driver.find_element(By.ID, "password_rules").text
        username_field = driver.find_element(By.CSS_SELECTOR, "input[autocomplete=username]").get_attribute("value")
        word_break = driver.execute_script("return getComputedStyle(document.querySelector('h1')).wordBreak")
        field.send_keys(bad)
        toggle = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "button.reveal")))
        toggle.click()
        revealed_type = field.get_attribute("type")
        toggle_pressed = toggle.get_attribute("aria-pressed")
        shots.append(prefix + "-1-form.png")
        driver.save_screenshot(shots[-1])
        toggle.click()
        hidden_again_type = field.get_attribute("type")
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        error = wait.until(ec.presence_of_element_located((By.ID, "password_error"))).text
        shots.append(prefix + "-2-error.png")
        driver.save_screenshot(shots[-1])
        field = driver.find_element(By.ID, "new_password")
        field.send_keys(good)
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        # The result page replaces the form. Chromium may report the old node as "not in the
        # document" rather than stale while it navigates, so poll the heading and ignore both.
        navigation = WebDriverWait(driver, 10, ignored_exceptions=(WebDriverException,))
        navigation.until(lambda d: not d.find_elements(By.ID, "new_password") and d.find_element(By.TAG_NAME, "h1").text)
        result_title = driver.find_element(By.TAG_NAME, "h1").text
        shots.append(prefix + "-3-done.png")
        driver.save_screenshot(shots[-1])
        print(json.dumps({"form_title": form_title, "rules": rules, "username_field": username_field, "word_break": word_break,
                          "revealed_type": revealed_type, "hidden_again_type": hidden_again_type,
                          "toggle_pressed": toggle_pressed, "error": error, "result_title": result_title,
                          "screenshots": shots}))
    finally:
        driver.quit()


if __name__ == "__main__":
    try:
        main()
    except Exception:
        import traceback
        with open(sys.argv[4] + ".log", "w") as log:
            traceback.print_exc(file=log)
        raise
