"""Drives the console's operations pages in a real headless Chromium (selenium).

Usage: console_browser_ops.py CONSOLE_URL ADMIN PASSWORD SCREENSHOT_DIR DOWNLOAD_DIR
Signs in, reads the status page's request rates, downloads the export with the button, opens
the outbox and its newest message; screenshots each page at desktop (1280x900) and phone
(390x844) sizes in English and Japanese. Prints one JSON object with what it saw.
"""
import json
import os
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from console_browser import Screens, start_chromium, run


def main():
    base, admin, password, shots_dir, downloads = sys.argv[1:6]
    os.makedirs(downloads, exist_ok=True)
    driver = start_chromium(downloads)
    screens = Screens(driver, shots_dir)
    shoot = screens.shoot
    wait = WebDriverWait(driver, 30)
    seen = {}

    def h1():
        return wait.until(ec.presence_of_element_located((By.TAG_NAME, "h1"))).text

    def rates():
        return [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
                for row in driver.find_elements(By.CSS_SELECTOR, ".ops-rates tbody tr")]

    try:
        driver.get(base + "/login?lang=en")
        driver.find_element(By.ID, "name").send_keys(admin + Keys.TAB)
        driver.switch_to.active_element.send_keys(password + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.ID, "q")))
        for language in ("en", "ja"):
            driver.get(base + "/status?lang=" + language)
            seen["status_" + language] = h1()
            seen["rates_" + language] = rates()
            shoot("ops-status", language)
            driver.get(base + "/export")
            seen["export_" + language] = h1()
            shoot("ops-export", language)
            driver.get(base + "/outbox")
            seen["outbox_" + language] = h1()
            seen["nav_" + language] = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "nav a")]
            seen["outbox_rows_" + language] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "tbody tr")]
            shoot("ops-outbox", language)
            driver.find_element(By.CSS_SELECTOR, "tbody tr a").click()
            seen["message_" + language] = wait.until(ec.presence_of_element_located((By.CLASS_NAME, "ops-mail"))).text
            seen["message_links_" + language] = len(driver.find_elements(By.CSS_SELECTOR, "main a[href^='http']"))
            shoot("ops-message", language)
        driver.get(base + "/export?lang=en")
        driver.find_element(By.CSS_SELECTOR, "form[action$='/export'] button").click()
        deadline = time.time() + 30
        done = []
        while time.time() < deadline:
            done = [n for n in os.listdir(downloads) if n.endswith(".jsonl")]
            if done:
                break
            time.sleep(0.2)
        seen["download"] = done[0] if done else None
        screens.report(seen)
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
