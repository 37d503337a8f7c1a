import RooftopHTTP

/// The console's pages as mustache templates: `Resources/<name>.mustache`, embedded in the binary
/// at build time (no resource bundle to ship beside it). Every `{{value}}` is HTML-escaped by
/// swift-mustache; the one unescaped `{{{content}}}` is a page this library rendered itself.
enum ConsoleTemplates {
    /// The compiled templates; a template that fails to parse is missing, which the template
    /// tests catch.
    static let library = TemplateLibrary(sources: sources)

    /// Names of templates that did not compile (none, unless one was broken).
    static var broken: [String] { library.broken }

    /// Renders `name` with `values`; empty when the template is missing.
    static func render(_ name: String, _ values: [String: Any]) -> String { library.render(name, values) }

    /// Every template by name. A new page's template is a new file in `Resources` and a line
    /// here; the template tests check that the two lists agree.
    static let sources: [String: String] = embedded.mapValues { String(decoding: $0, as: UTF8.self) }

    static let embedded: [String: [UInt8]] = [
        "audit": PackageResources.audit_mustache,
        "confirmDelete": PackageResources.confirmDelete_mustache,
        "dataACL": PackageResources.dataACL_mustache,
        "dataClasses": PackageResources.dataClasses_mustache,
        "dataDeleted": PackageResources.dataDeleted_mustache,
        "dataObject": PackageResources.dataObject_mustache,
        "dataRole": PackageResources.dataRole_mustache,
        "dataRoles": PackageResources.dataRoles_mustache,
        "dataTable": PackageResources.dataTable_mustache,
        "events": PackageResources.events_mustache,
        "layout": PackageResources.layout_mustache,
        "login": PackageResources.login_mustache,
        "message": PackageResources.message_mustache,
        "opsExport": PackageResources.opsExport_mustache,
        "opsMessage": PackageResources.opsMessage_mustache,
        "opsNoOutbox": PackageResources.opsNoOutbox_mustache,
        "opsOutbox": PackageResources.opsOutbox_mustache,
        "opsStatus": PackageResources.opsStatus_mustache,
        "schemaClass": PackageResources.schemaClass_mustache,
        "schemaList": PackageResources.schemaList_mustache,
        "schemaPermissions": PackageResources.schemaPermissions_mustache,
        "user": PackageResources.user_mustache,
        "userEditSection": PackageResources.userEditSection_mustache,
        "userOwnedSection": PackageResources.userOwnedSection_mustache,
        "userPasskey": PackageResources.userPasskey_mustache,
        "userPasskeysSection": PackageResources.userPasskeysSection_mustache,
        "userSecondFactor": PackageResources.userSecondFactor_mustache,
        "userViewAs": PackageResources.userViewAs_mustache,
        "userViewAsSection": PackageResources.userViewAsSection_mustache,
        "users": PackageResources.users_mustache,
    ]
}
