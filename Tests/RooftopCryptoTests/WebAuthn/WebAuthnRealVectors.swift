import RooftopCore
import RooftopCrypto
import RooftopServices
import Testing

// Real responses from real authenticators and clients, with the challenge, origin and RP ID they
// were made for. Source: github.com/MasterKale/SimpleWebAuthn, MIT licence,
// packages/server/src/registration/verifyRegistrationResponse.test.ts (the registrations) and
// packages/server/src/authentication/verifyAuthenticationResponse.test.ts (the assertions). Two
// values there carry base64 `=` padding, which WebAuthn's JSON never has; it is dropped here.

private let verifier = WebAuthnVerifier()

private func b64(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

private func ceremony(_ rpId: String, _ origin: String, _ challenge: [UInt8], uv: Bool) -> PasskeyCeremony {
    PasskeyCeremony(relyingPartyId: rpId, origins: [origin], challenge: challenge, requiresUserVerification: uv)
}

@Suite struct WebAuthnRealVectorTests {
    /// Windows Hello: `none` attestation of an RS256 (2048-bit) key ("should verify None
    /// attestation w/RSA public key"); its client data is the older member order, without crossOrigin.
    @Test func windowsHelloRS256Registration() throws {
        let input = try PasskeyRegistrationInput(
            clientDataJSON: b64(
                "eyJjaGFsbGVuZ2UiOiJwWVozVlgyeWI4ZFM5eXBsTnhKQ2hpWGhQR0JrOGdaelRBeUoyaVU1eDFrIiwiY2xpZW50RXh0ZW5zaW9ucyI6e30sImhhc2hBbGdvcml0aG0iOiJTSEEtMjU2Iiwib3JpZ2luIjoiaHR0cHM6Ly9kZXYuZG9udG5lZWRhLnB3IiwidHlwZSI6IndlYmF1dGhuLmNyZWF0ZSJ9"
            ),
            attestationObject: b64(
                "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVkBZz3cRxDpwIiyKduonVYyILs59yKa_0ZbCmVrGvuaivigRQAAAABgKLAXsdRMArSzr82vyWuyACCQZe_hElYt5dHDxh_dPbYrcar8YZ4O_04piYAcubRiWqQBAwM5AQAgWQEA8X6V649G2vwB99CSf_luwR0jj7oDg_GhA3TQSnNYIwfQJldxT5dmi9H8IjjCrTP28iNuKl29hc3Mowux1FZB0bc5AEJ2oV3JCOMGP9NZKGmOosF7iBN2GtGY7Nomcs-ruBv2mxp1nTm6mv5B8XNwh0e18uTA5AJCsl-k6lNLYB2XBIQ3fy2-TjSQ8IOMLypWQbWWBJXzLmepaJ6EWe6kf_NaxpA2chWsaekZcr8xG6OIo3iGh0Mpags_qBZtN4n2TDn0R2LheLk4yQ0R_oOAVtX963Yuw0x5NYSZyMNSMi_1RSEPTYn5AILmIzQskglDaWJYtnjKz4QLuXWCRRYyDSFDAQAB"
            ))
        let challenge = try b64("pYZ3VX2yb8dS9yplNxJChiXhPGBk8gZzTAyJ2iU5x1k")
        #expect(verifier.challenge(inClientData: input.clientDataJSON) == challenge)
        let stored = try verifier.register(input, ceremony: ceremony("dev.dontneeda.pw", "https://dev.dontneeda.pw", challenge, uv: true))
        #expect(stored.credentialId == (try b64("kGXv4RJWLeXRw8Yf3T22K3Gq_GGeDv9OKYmAHLm0Ylo")))
        #expect(
            stored.publicKey
                == (try b64(
                    "pAEDAzkBACBZAQDxfpXrj0ba_AH30JJ_-W7BHSOPugOD8aEDdNBKc1gjB9AmV3FPl2aL0fwiOMKtM_byI24qXb2FzcyjC7HUVkHRtzkAQnahXckI4wY_01koaY6iwXuIE3Ya0Zjs2iZyz6u4G_abGnWdObqa_kHxc3CHR7Xy5MDkAkKyX6TqU0tgHZcEhDd_Lb5ONJDwg4wvKlZBtZYElfMuZ6lonoRZ7qR_81rGkDZyFaxp6RlyvzEbo4ijeIaHQylqCz-oFm03ifZMOfRHYuF4uTjJDRH-g4BW1f3rdi7DTHk1hJnIw1IyL_VFIQ9NifkAguYjNCySCUNpYli2eMrPhAu5dYJFFjINIUMBAAE"
                )))
        #expect(stored.algorithm == -257 && stored.format == "none" && stored.signCount == 0 && stored.userVerified)
        #expect(!stored.backupEligible && !stored.backedUp)
        #expect(
            throws: PasskeyRefusal.self,
            performing: { try verifier.register(input, ceremony: ceremony("dontneeda.pw", "https://dev.dontneeda.pw", challenge, uv: true)) })
    }

    /// An Android app (origin `android:apk-key-hash:…`, `androidPackageName` in client data),
    /// ES256, with an extension output after the key (ED set: `devicePubKey`).
    @Test func androidRegistrationWithExtensions() throws {
        let input = try PasskeyRegistrationInput(
            clientDataJSON: b64(
                "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiQXJrcmxfRnhfTXZjSl9lSXFDVFE3LXRiRVNJU1IxNC1weVBSaDBLLTFBOCIsIm9yaWdpbiI6ImFuZHJvaWQ6YXBrLWtleS1oYXNoOmd4N3NxX3B4aHhocklRZEx5ZkcwcHhLd2lKN2hPazJESlE0eHZLZDQzOFEiLCJhbmRyb2lkUGFja2FnZU5hbWUiOiJjb20uZmlkby5leGFtcGxlLmZpZG8yYXBpZXhhbXBsZSJ9"
            ),
            attestationObject: b64(
                "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVkBag11_MVj_ad52y40PupImIh1i3hUnUk6T9vqHNlqoxzExQAAAAAAAAAAAAAAAAAAAAAAAAAAABAT8-SjjA3UFcTbdLR-03d5pQECAyYgASFYIJIkX8fs9wjKUv5HWBUop--6ig4Szsxj8gBgJJmaX-_5IlggJ5XVdjUfCMlVlUZuHJRxCLFLzZCeK8Fg3l6OLfAIHnKhbGRldmljZVB1YktleaVjZHBrWE2lAQIDJiABIVggmRqr7Z3kJxqe3q2IBvncltbczQxHYlOlUQSJ7IN5vlsiWCCglzz97bt54n_vTudIFnP7MxJQTdylQ0z9I0MdatKe2mNzaWdYRzBFAiEA77OAdL0VuMgs8J-H-8b7PHFp6k8YBrfpCTc3QwI0W3oCICtxEwQHMaDnJ9M41IVChjzmWICqeeXqdArIzNlDR5iOZW5vbmNlQGVzY29wZUEAZmFhZ3VpZFAAAAAAAAAAAAAAAAAAAAAA"
            ))
        let origin = "android:apk-key-hash:gx7sq_pxhxhrIQdLyfG0pxKwiJ7hOk2DJQ4xvKd438Q"
        let challenge = try b64("Arkrl_Fx_MvcJ_eIqCTQ7-tbESISR14-pyPRh0K-1A8")
        let stored = try verifier.register(input, ceremony: ceremony("try-webauthn.appspot.com", origin, challenge, uv: true))
        #expect(stored.credentialId == (try b64("E_Pko4wN1BXE23S0ftN3eQ")))
        #expect(stored.algorithm == -7 && stored.userVerified)
        let authData = try AttestationObject.parse(input.attestationObject).authenticatorData
        let parsed = try AuthenticatorData.parse(authData, for: .registration)
        #expect(parsed.flags.extensionData && parsed.extensions?["devicePubKey"]?["scope"]?.bytes == [0])
        #expect(
            throws: PasskeyRefusal(.wrongOrigin, "origin not allowed"),
            performing: {
                try verifier.register(input, ceremony: ceremony("try-webauthn.appspot.com", "https://try-webauthn.appspot.com", challenge, uv: true))
            }
        )
    }

    /// A counting authenticator's sign-in (UP only, counter 144) to a stored ES256 key.
    @Test func securityKeyAssertion() throws {
        let input = try PasskeyAssertionInput(
            clientDataJSON: b64(
                "eyJjaGFsbGVuZ2UiOiJkRzkwWVd4c2VWVnVhWEYxWlZaaGJIVmxSWFpsY25sVWFXMWwiLCJjbGllbnRFeHRlbnNpb25zIjp7fSwiaGFzaEFsZ29yaXRobSI6IlNIQS0yNTYiLCJvcmlnaW4iOiJodHRwczovL2Rldi5kb250bmVlZGEucHciLCJ0eXBlIjoid2ViYXV0aG4uZ2V0In0"
            ),
            authenticatorData: b64("PdxHEOnAiLIp26idVjIguzn3Ipr_RlsKZWsa-5qK-KABAAAAkA"),
            signature: b64("MEUCIQDYXBOpCWSWq2Ll4558GJKD2RoWg958lvJSB_GdeokxogIgWuEVQ7ee6AswQY0OsuQ6y8Ks6jhd45bDx92wjXKs900"))
        let publicKey = try b64("pQECAyYgASFYIIheFp-u6GvFT2LNGovf3ZrT0iFVBsA_76rRysxRG9A1Ilgg8WGeA6hPmnab0HAViUYVRkwTNcN77QBf_RR0dv3lIvQ")
        let challenge = Array("totallyUniqueValueEveryTime".utf8)
        let signIn = ceremony("dev.dontneeda.pw", "https://dev.dontneeda.pw", challenge, uv: false)
        let checked = try verifier.assert(input, publicKey: publicKey, ceremony: signIn)
        #expect(checked == CheckedAssertion(signCount: 144, userVerified: false, backupEligible: false, backedUp: false))
        #expect(
            throws: PasskeyRefusal(.userNotVerified, "UV not set"),
            performing: {
                try verifier.assert(
                    input, publicKey: publicKey, ceremony: ceremony("dev.dontneeda.pw", "https://dev.dontneeda.pw", challenge, uv: true))
            }
        )
    }

    /// A sign-in on localhost, client data in Chromium's form (crossOrigin false), UP and UV set.
    @Test func localhostPlatformAssertion() throws {
        let clientData = try b64(
            "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiZXlKaFkzUjFZV3hEYUdGc2JHVnVaMlVpT2lKTE0xRjRUMnB1VmtwTWFVZHNibFpGY0RWMllUVlJTbVZOVmxkT1psODNVRmxuZFhSbllrRjBRVlZCSWl3aVlYSmlhWFJ5WVhKNVJHRjBZU0k2SW5OcFoyNU5aVkJzWldGelpTSjkiLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjgwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9"
        )
        let input = try PasskeyAssertionInput(
            clientDataJSON: clientData, authenticatorData: b64("SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFYftypQ"),
            signature: b64("MEUCIByFAVGfkoKPEzynp-37BX_HOXSaC6-58-ELjB7BG9opAiEAyD_1mN9YAPrphcwpzK3ym2Xx8EjAapgQ326mKgQ1pW0"))
        let publicKey = try b64("pQECAyYgASFYILTrxTUQv3X4DRM6L_pk65FSMebenhCx3RMsTKoBm-AxIlggEf3qk5552QLNSh1T1oQs7_2C2qysDwN4r4fCp52Hsqs")
        let challenge = try #require(verifier.challenge(inClientData: clientData))
        let checked = try verifier.assert(input, publicKey: publicKey, ceremony: ceremony("localhost", "http://localhost:8000", challenge, uv: true))
        #expect(checked.signCount == 0x61fb_72a5 && checked.userVerified)
        var tampered = input
        tampered.signature[10] ^= 0x80
        #expect(
            throws: PasskeyRefusal(.badSignature, "signature does not verify"),
            performing: {
                try verifier.assert(tampered, publicKey: publicKey, ceremony: ceremony("localhost", "http://localhost:8000", challenge, uv: true))
            }
        )
    }
}
