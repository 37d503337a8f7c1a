"""Registers and signs in with a passkey on Rooftop's hosted passkey page, in a real headless
Chromium with its virtual authenticator (WebDriver's WebAuthn extension: CTAP2, internal, resident
keys, user verification), so Chromium itself builds the client data, the origin and the signature.

Usage: passkey_browser.py API_URL APP_ID USERNAME PASSWORD SCREENSHOT_DIR
API_URL is the server's address with its mount path on a `localhost` host
(`http://localhost:PORT/parse`): browsers refuse an IP address as an RP ID. Signs in with the
password, adds a passkey named "Chromium", signs out, signs in with the passkey without a
username, then with the username; prints one JSON object with what it saw. Exits non-zero on
failure.
"""
import json
import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from console_browser import Screens, run, start_chromium  # noqa: E402


def main():
    api, app_id, username, password, shots_dir = sys.argv[1:6]
    # The server listens on 127.0.0.1; `localhost` (the RP ID) must reach it, not ::1.
    driver = start_chromium(flags=("--lang=en-US", "--host-resolver-rules=MAP localhost 127.0.0.1"))
    screens = Screens(driver, shots_dir)
    wait = WebDriverWait(driver, 30)
    seen = {}

    def state(expected):
        wait.until(lambda d: d.find_element(By.ID, "passkey-status").get_attribute("data-state") in (expected, "error"))
        status = driver.find_element(By.ID, "passkey-status")
        if status.get_attribute("data-state") == "error":
            raise RuntimeError("the page reported: " + status.text)

    def heading():
        return driver.find_element(By.ID, "signed-in-h").text

    try:
        driver.get(api + "/apps/" + app_id + "/passkeys")
        options = VirtualAuthenticatorOptions()
        options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
        options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
        options.has_resident_key = True
        options.has_user_verification = True
        options.is_user_verified = True
        options.is_user_consenting = True
        driver.add_virtual_authenticator(options)
        seen["title"] = driver.title
        seen["form_shown"] = driver.find_element(By.ID, "passkeys").is_displayed()
        screens.shoot("passkeys", "en", "passkey-h")

        driver.find_element(By.ID, "username").send_keys(username)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "#password-sign-in button").click()
        state("signed-in")
        seen["after_password"] = heading()

        driver.find_element(By.ID, "passkey-name").send_keys("Chromium")
        driver.find_element(By.CSS_SELECTOR, "#add-passkey button").click()
        state("added")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#passkey-list li[data-id]"))
        seen["listed"] = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#passkey-list li[data-id]")]
        credentials = driver.get_credentials()
        seen["credentials"] = len(credentials)
        seen["resident"] = all(credential.is_resident_credential for credential in credentials)

        for name, typed in (("usernameless", ""), ("with_username", username)):
            driver.find_element(By.ID, "sign-out").click()
            state("signed-out")
            field = driver.find_element(By.ID, "passkey-username")
            field.clear()
            if typed:
                field.send_keys(typed)
            driver.find_element(By.CSS_SELECTOR, "#passkey-sign-in button").click()
            state("signed-in")
            seen[name] = heading()
        seen["sign_count"] = driver.get_credentials()[0].sign_count
        screens.report(seen)
        print(json.dumps(seen, ensure_ascii=False))
    finally:
        driver.quit()


if __name__ == "__main__":
    run(main)
