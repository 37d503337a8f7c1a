extension ServerConfiguration {
    /// What a first start should tell the operator about defaults their users would see: the
    /// random application id as the app's name in mails and pages, and a sender address that
    /// real mail servers refuse. Logged once by `serve`; empty when both are set.
    package func startupWarnings(appId: String) -> [String] {
        var warnings: [String] = []
        if appName == nil {
            warnings.append(
                "appName is not set: mails and hosted pages call this app \"\(appId)\"; "
                    + "set appName in the configuration file or ROOFTOP_APP_NAME")
        }
        if mail.from == nil, mail.transport == "smtp" {
            warnings.append(
                "mail.from is not set: mail is sent from no-reply@localhost, which receiving servers refuse or file as spam; "
                    + "set mail.from (an address of your domain) in the configuration file or ROOFTOP_MAIL")
        }
        return warnings
    }
}
