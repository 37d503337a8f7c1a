import HTTPTypes
import Hummingbird
import NIOCore
import RooftopCore
import RooftopServices

/// The passkey page (`/apps/:appId/passkeys`): where a person signs in with a passkey, or with
/// the password and then adds one — a way for an operator to try the server's passkey settings
/// (RP ID, origins) in a browser before an app relies on them. The page itself holds nothing:
/// its script calls the REST routes, and keeps the session in memory only.
extension HostedPages {
    /// The page, in the visitor's language; 404 for another app, or while passkeys are off.
    func passkeyPage(_ page: PageRequest) -> Response {
        guard page.pathParameters["appId"] == appId, accounts.config.passkeys.relyingPartyId != nil else { return notFound(page) }
        let language = self.language(page)
        let words = PasskeyPageText.words(language)
        var values: [String: Any] = words
        let appName = accounts.appName.isEmpty ? appId : accounts.appName
        values["message"] = TextTemplate.fill(words["message"] ?? "", ["appName": appName])
        values["appId"] = appId
        values["script"] = HostedPage.asset("rooftop-passkeys.js", besides: stylesheet(page.segments))
        let title = words["title"] ?? "Passkeys"
        let html = templates.render(
            lang: language, title: title, appName: appName, stylesheet: stylesheet(page.segments),
            content: PageMarkup.library.render("passkeys", values), assets: HostedPage.asset("", besides: stylesheet(page.segments)))
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        HostedPage.addSecurityHeaders(&headers)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
