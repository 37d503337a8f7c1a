// The passkey page (/apps/:appId/passkeys): sign in with a passkey or a password, add a passkey,
// list them, over Rooftop's REST routes. The session token lives in this closure only (never in
// storage or a cookie), so closing the page signs out. WebAuthn's options and answers cross the
// wire as base64url JSON (WebAuthn L3); the conversions are here so the page works in browsers
// without PublicKeyCredential.parseCreationOptionsFromJSON.
(function () {
  "use strict";
  var root = document.getElementById("passkeys");
  if (!root || !window.PublicKeyCredential) return;
  root.hidden = false;
  // The page is <mount>/apps/<appId>/passkeys: the API is <mount>.
  var api = new URL("../../", window.location.href).pathname.replace(/\/$/, "");
  var appId = root.getAttribute("data-app-id");
  var token = null;
  var status = document.getElementById("passkey-status");

  function bytes(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) base64 += "=";
    var binary = atob(base64);
    var out = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out.buffer;
  }

  function text(buffer) {
    var view = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < view.length; i++) binary += String.fromCharCode(view[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (item) {
      return { type: item.type, id: bytes(item.id), transports: item.transports };
    });
  }

  function call(method, path, body) {
    var headers = { "X-Parse-Application-Id": appId, "Content-Type": "application/json" };
    if (token) headers["X-Parse-Session-Token"] = token;
    return fetch(api + path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (response) {
        return response.json().then(function (json) {
          if (!response.ok || (json && json.code !== undefined && json.error !== undefined)) {
            var error = new Error(json && json.error ? json.error : "HTTP " + response.status);
            error.code = json && json.code;
            throw error;
          }
          return json;
        });
      });
  }

  function show(message, state) {
    status.textContent = message;
    status.setAttribute("data-state", state);
  }

  function signedIn(user) {
    token = user.sessionToken;
    var heading = document.getElementById("signed-in-h");
    heading.textContent = heading.getAttribute("data-template").replace("{name}", user.username || user.objectId);
    document.getElementById("signed-out").hidden = true;
    document.getElementById("signed-in").hidden = false;
    show("", "signed-in");
    return list();
  }

  function list() {
    return call("GET", "/users/me/passkeys").then(function (answer) {
      var ul = document.getElementById("passkey-list");
      ul.textContent = "";
      answer.results.forEach(function (passkey) {
        var li = document.createElement("li");
        li.textContent = passkey.name;
        li.setAttribute("data-id", passkey.id);
        ul.appendChild(li);
      });
      if (!answer.results.length) {
        var empty = document.createElement("li");
        empty.textContent = ul.getAttribute("data-empty");
        ul.appendChild(empty);
      }
    });
  }

  function failed(error) {
    show(error.message || String(error), "error");
  }

  document.getElementById("passkey-sign-in").addEventListener("submit", function (event) {
    event.preventDefault();
    var username = document.getElementById("passkey-username").value.trim();
    call("POST", "/passkeys/authentication/options", username ? { username: username } : {})
      .then(function (options) {
        return navigator.credentials.get({
          publicKey: {
            challenge: bytes(options.challenge), rpId: options.rpId, timeout: options.timeout,
            userVerification: options.userVerification, allowCredentials: descriptors(options.allowCredentials),
          },
        });
      })
      .then(function (credential) {
        var response = credential.response;
        return call("POST", "/passkeys/authentication", {
          credential: {
            id: credential.id, rawId: text(credential.rawId), type: credential.type, clientExtensionResults: {},
            response: {
              clientDataJSON: text(response.clientDataJSON), authenticatorData: text(response.authenticatorData),
              signature: text(response.signature), userHandle: response.userHandle ? text(response.userHandle) : null,
            },
          },
        });
      })
      .then(signedIn)
      .catch(failed);
  });

  document.getElementById("password-sign-in").addEventListener("submit", function (event) {
    event.preventDefault();
    call("POST", "/login", { username: document.getElementById("username").value, password: document.getElementById("password").value })
      .then(signedIn)
      .catch(failed);
  });

  document.getElementById("add-passkey").addEventListener("submit", function (event) {
    event.preventDefault();
    var name = document.getElementById("passkey-name").value.trim();
    call("POST", "/users/me/passkeys/registration/options", {})
      .then(function (options) {
        return navigator.credentials.create({
          publicKey: {
            rp: options.rp, challenge: bytes(options.challenge), pubKeyCredParams: options.pubKeyCredParams, timeout: options.timeout,
            user: { id: bytes(options.user.id), name: options.user.name, displayName: options.user.displayName },
            excludeCredentials: descriptors(options.excludeCredentials),
            authenticatorSelection: options.authenticatorSelection, attestation: options.attestation,
          },
        });
      })
      .then(function (credential) {
        var response = credential.response;
        var body = {
          credential: {
            id: credential.id, rawId: text(credential.rawId), type: credential.type, clientExtensionResults: {},
            response: {
              clientDataJSON: text(response.clientDataJSON), attestationObject: text(response.attestationObject),
              transports: response.getTransports ? response.getTransports() : [],
            },
          },
        };
        if (name) body.name = name;
        return call("POST", "/users/me/passkeys", body);
      })
      .then(function () {
        show("", "added");
        return list();
      })
      .catch(failed);
  });

  document.getElementById("sign-out").addEventListener("click", function () {
    var ending = token;
    token = null;
    document.getElementById("signed-in").hidden = true;
    document.getElementById("signed-out").hidden = false;
    show("", "signed-out");
    if (ending) {
      fetch(api + "/logout", { method: "POST", headers: { "X-Parse-Application-Id": appId, "X-Parse-Session-Token": ending } });
    }
  });
})();
