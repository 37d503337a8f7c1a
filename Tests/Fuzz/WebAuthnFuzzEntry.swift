// libFuzzer harness for WebAuthn's binary parsers (not part of the SwiftPM package):
// ./scripts/fuzz-cbor [seconds] webauthn. The input is read as an attestation object, and as
// authenticator data of a registration and of a sign-in. Invariants checked: parsing never
// crashes, and whatever is accepted accounts for every byte and reads back the same.

private func checkAuthenticatorData(_ bytes: [UInt8], _ data: AuthenticatorData, registration: Bool) {
    precondition(data.rpIdHash.count == 32 && data.flags.rawValue == bytes[32])
    precondition(!data.flags.backedUp || data.flags.backupEligible, "BS without BE accepted")
    precondition(data.flags.extensionData == (data.extensions != nil))
    var length = 37
    if let credential = data.attestedCredential {
        precondition(registration && data.flags.attestedCredentialData)
        precondition(credential.aaguid.count == 16 && (1...1023).contains(credential.credentialId.count))
        let start = 37 + 18 + credential.credentialId.count
        precondition(Array(bytes[start..<start + credential.publicKeyBytes.count]) == credential.publicKeyBytes)
        precondition((try? CBORDecoder.decode(credential.publicKeyBytes, limits: .webAuthn)) == credential.publicKey)
        length = start + credential.publicKeyBytes.count
    } else {
        precondition(!registration && !data.flags.attestedCredentialData)
    }
    if let extensions = data.extensions {
        precondition((try? CBORDecoder.decode(Array(bytes[length...]), limits: .webAuthn)) == extensions, "bytes left over accepted")
        length = bytes.count
    }
    precondition(length == bytes.count, "bytes left over accepted")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    if let object = try? AttestationObject.parse(input) {
        precondition((1...AttestationObject.maximumFormatLength).contains(object.format.utf8.count))
        if let parsed = try? AuthenticatorData.parse(object.authenticatorData, for: .registration) {
            checkAuthenticatorData(object.authenticatorData, parsed, registration: true)
        }
    }
    for registration in [true, false] {
        if let parsed = try? AuthenticatorData.parse(input, for: registration ? .registration : .assertion) {
            checkAuthenticatorData(input, parsed, registration: registration)
        }
    }
    return 0
}
