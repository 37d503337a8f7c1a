package import RooftopCore

/// What one caller may see or change in one class, in the form the SQL compiler needs.
package struct Access: Sendable, Equatable {
    /// ACL entries the caller matches; nil for the master key (no ACL check).
    package var aclGroup: [String]?
    /// The caller's user id, for pointer permissions and the `_User` owner exemption.
    package var userId: String?
    /// When set, only objects whose listed pointer fields reference `userId` qualify.
    package var pointerRestriction: [FieldName]
    /// Fields removed from every returned object.
    package var hiddenFields: Set<String>
    /// For `userField:<f>` audiences: where `f` references the caller, only these stay hidden.
    package var hiddenUnlessUserField: [String: Set<String>]
    /// Writes only: the object must hold exactly these string values, checked in the same
    /// statement as the write, so a single-use token is consumed by exactly one request.
    package var requiredValues: [FieldName: String] = [:]
    /// Writes only: the object must not hold these fields at all, checked in the same statement
    /// (the first write of a field that later writes require by value).
    package var requiredAbsent: Set<FieldName> = []

    /// Creates an access description.
    package init(
        aclGroup: [String]?, userId: String? = nil, pointerRestriction: [FieldName] = [], hiddenFields: Set<String> = [],
        hiddenUnlessUserField: [String: Set<String>] = [:]
    ) {
        self.aclGroup = aclGroup
        self.userId = userId
        self.pointerRestriction = pointerRestriction
        self.hiddenFields = hiddenFields
        self.hiddenUnlessUserField = hiddenUnlessUserField
    }

    /// Unrestricted access (master key, or the server itself).
    package static let master = Access(aclGroup: nil)

    /// This access, restricted to objects without `field` (see `requiredAbsent`).
    package func requiringAbsent(_ field: FieldName) -> Access {
        var access = self
        access.requiredAbsent.insert(field)
        return access
    }

    /// This access, restricted to objects whose `field` holds `value` (see `requiredValues`).
    package func requiring(_ field: FieldName, equals value: String) -> Access {
        var access = self
        access.requiredValues[field] = value
        return access
    }
}

/// The access of one caller to every class a query touches.
package struct AccessScope: Sendable {
    /// Access per class; a class missing here is not readable at all.
    package var classes: [ClassName: Access]

    /// Creates a scope.
    package init(classes: [ClassName: Access]) { self.classes = classes }

    /// The access for `className`.
    package func access(for className: ClassName) -> Access? { classes[className] }
}
