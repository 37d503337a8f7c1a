package import RooftopCore

extension QueryCompiler {
    /// The condition a row must meet for `access` to update or delete it (its write list,
    /// pointer permissions, required values), to follow `objectId = <first binding>` in the
    /// statement that reads or writes the row, so the check and the write can't drift apart.
    package static func writeGuard(_ access: Access, schema: ClassSchema, table: String, dialect: any SQLDialect) -> SQLFragment {
        let catalog = Catalog(schemas: [schema.className: schema], tables: [schema.className: table])
        return accessCondition(access, schema: schema, permissionColumn: "_wperm", dialect: dialect, catalog: catalog, bindingOffset: 1)
    }
}
