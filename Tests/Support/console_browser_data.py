"""Drives the console's data and roles pages in a real headless Chromium (selenium).

Usage: console_browser_data.py CONSOLE_URL ADMIN PASSWORD OBJECT_ID USERNAME ROLE_ID SCREENSHOT_DIR
Signs in; on the classes page opens Note; filters the Item table with the builder, sorts it by
a column and follows the next page; opens Note OBJECT_ID, adds USERNAME with read access in the
ACL grid and saves; reads the audit log; opens the roles list and role ROLE_ID. Screenshots of
the classes, table, object and role pages at desktop and phone sizes in English and Japanese.
Prints one JSON object with what it saw; exits non-zero on failure.
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
    base, admin, password, object_id, username, role_id, shots_dir = sys.argv[1:8]
    driver = start_chromium()
    screens = Screens(driver, shots_dir, "data-")
    shoot = screens.shoot
    wait = WebDriverWait(driver, 30)
    # While the next page replaces this one, the old rows go stale: read again, never fail.
    settle = WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,))
    seen = {}

    def h1():
        return wait.until(ec.presence_of_element_located((By.TAG_NAME, "h1"))).text

    def rows():
        return [r.find_element(By.CSS_SELECTOR, "td code").text for r in driver.find_elements(By.CSS_SELECTOR, ".data-table tbody tr")]

    def both_languages(name, url):
        for language in ("ja", "en"):
            driver.get(url + ("&" if "?" in url else "?") + "lang=" + language)
            seen[f"{name}_{language}"] = h1()
            shoot(name, language)

    try:
        driver.get(base + "/login")
        driver.find_element(By.ID, "name").send_keys(admin)
        driver.find_element(By.ID, "password").send_keys(password + Keys.ENTER)
        wait.until(ec.presence_of_element_located((By.ID, "q")))
        # Classes, then the Item table from its link.
        driver.find_element(By.LINK_TEXT, "Data").click()
        wait.until(ec.presence_of_element_located((By.LINK_TEXT, "Item")))
        seen["classes"] = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "tbody tr")]
        both_languages("classes", base + "/data")
        driver.find_element(By.LINK_TEXT, "Item").click()
        wait.until(ec.text_to_be_present_in_element((By.TAG_NAME, "h1"), "Item"))
        seen["table_first_page"] = len(rows())
        # The builder: rank < 10.
        Select(driver.find_element(By.ID, "f0")).select_by_value("rank")
        Select(driver.find_element(By.ID, "o0")).select_by_value("lt")
        driver.find_element(By.ID, "v0").send_keys("10" + Keys.ENTER)
        settle.until(lambda d: len(rows()) == 10)
        seen["filtered"] = len(rows())
        # Sorted by rank, descending, by clicking its header twice.
        driver.find_element(By.LINK_TEXT, "rank").click()
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "th[aria-sort='ascending']")))
        driver.find_element(By.LINK_TEXT, "rank").click()
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "th[aria-sort='descending']")))
        rank_column = [th.text.split(" ")[0] for th in driver.find_elements(By.CSS_SELECTOR, "thead th")].index("rank")
        settle.until(lambda d: len(rows()) == 10)
        seen["sorted_ranks"] = [r.find_elements(By.TAG_NAME, "td")[rank_column].text
                                for r in driver.find_elements(By.CSS_SELECTOR, ".data-table tbody tr")]
        # Paging: clear the filter, then follow the next page.
        driver.get(base + "/data/Item?sort=rank")
        first = rows()
        driver.find_element(By.CSS_SELECTOR, "a[rel='next']").click()
        settle.until(lambda d: rows() and rows()[0] not in first)
        settle.until(lambda d: len(rows()) == 10)
        seen["second_page"] = len(rows())
        seen["pages_overlap"] = bool(set(first) & set(rows()))
        both_languages("table", base + "/data/Item?sort=rank")
        # The object: add the user with read access in the ACL grid and save.
        driver.get(base + "/data/Note/" + object_id)
        seen["acl_rows_before"] = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "table.acl tbody tr")]
        driver.find_element(By.ID, "addKey").send_keys(username)
        read = driver.find_element(By.NAME, "addRead")
        if not read.is_selected():
            read.click()
        driver.find_element(By.CSS_SELECTOR, "form[action$='/acl'] button[type='submit']").click()
        seen["acl_notice"] = wait.until(ec.presence_of_element_located((By.CLASS_NAME, "notice"))).text
        seen["acl_rows_after"] = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "table.acl tbody tr")]
        both_languages("object", base + "/data/Note/" + object_id)
        driver.get(base + "/audit?event=admin.object.updated&lang=en")
        seen["audit_rows"] = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "tbody tr")]
        both_languages("roles", base + "/roles")
        both_languages("role", base + "/roles/" + role_id)
        seen["role_users"] = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#members-h ~ ul li")]
        screens.report(seen)
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
