package import RooftopCore

/// A class's class-level permissions in plain sentences (English or Japanese), as the schema
/// page shows them above the editor. Pure: it reads the CLP the way `AccessPolicy` decides, so
/// what it says is what the server does. Names are in backticks (the page shows them as code).
package enum PermissionSentences {
    /// Who may perform an operation, as `AccessPolicy.check` decides it.
    package enum Who: Hashable {
        /// `*`: every caller, signed in or not.
        case anyone
        /// `requiresAuthentication`: any signed-in user (which covers every role, user and pointer).
        case signedIn
        /// Some roles, users and the users referenced by pointer fields.
        case some(roles: [String], users: [String], pointers: [String])
        /// Nobody but the master key (an empty rule).
        case master
    }

    /// The order operations are described in (reads first).
    package static let order: [ClassLevelPermissions.Operation] = [.get, .find, .count, .create, .update, .delete, .addField]

    /// The sentences for `clp` in `language` (`en` or `ja`): one per group of operations the
    /// same callers may perform, then one per protected field that is hidden from someone.
    package static func sentences(_ clp: ClassLevelPermissions, language: String) -> [String] {
        let words = language == "ja" ? Words.japanese : Words.english
        var groups: [(who: Who, operations: [ClassLevelPermissions.Operation])] = []
        for operation in order {
            let who = who(operation, clp)
            if let index = groups.firstIndex(where: { $0.who == who }) {
                groups[index].operations.append(operation)
            } else {
                groups.append((who, [operation]))
            }
        }
        var result = groups.map { words.sentence($0.who, verbs(Set($0.operations), words)) }
        for field in Set(clp.protectedFields.values.joined()).sorted() {
            if let sentence = protectedSentence(field, clp.protectedFields, words) { result.append(sentence) }
        }
        return result
    }

    /// Who may perform `operation`: `*` wins, then `requiresAuthentication`, then entries and
    /// pointer fields; `readUserFields` count for get/find/count, `writeUserFields` for
    /// update/delete/addField, and neither (nor a rule's pointer fields) for create.
    package static func who(_ operation: ClassLevelPermissions.Operation, _ clp: ClassLevelPermissions) -> Who {
        let rule = clp.rule(operation)
        if rule.entries.contains("*") { return .anyone }
        if rule.requiresAuthentication { return .signedIn }
        var pointers: [String] = []
        switch operation {
        case .get, .find, .count: pointers = (rule.pointerFields + clp.readUserFields).map(\.rawValue)
        case .update, .delete, .addField: pointers = (rule.pointerFields + clp.writeUserFields).map(\.rawValue)
        case .create: pointers = []
        }
        pointers = pointers.reduce(into: []) { unique, name in if !unique.contains(name) { unique.append(name) } }
        let roles = rule.entries.filter { $0.hasPrefix("role:") }.map { String($0.dropFirst(5)) }.sorted()
        let users = rule.entries.filter { !$0.hasPrefix("role:") }.sorted()
        if roles.isEmpty && users.isEmpty && pointers.isEmpty { return .master }
        return .some(roles: roles, users: users, pointers: pointers)
    }

    /// The verbs for a group of operations; get, find and count together read as one verb.
    static func verbs(_ operations: Set<ClassLevelPermissions.Operation>, _ words: Words) -> [String] {
        var result: [String] = []
        let reads: Set<ClassLevelPermissions.Operation> = [.get, .find, .count]
        if reads.isSubset(of: operations) { result.append(words.read) }
        for operation in order where operations.contains(operation) {
            if reads.isSubset(of: operations) && reads.contains(operation) { continue }
            result.append(words.verbs[operation] ?? operation.rawValue)
        }
        return result
    }

    /// The sentence for one protected field, following `AccessPolicy.protectedFields`: a field
    /// is hidden from a caller when every audience that applies to it lists the field, and a
    /// `userField:` audience without it shows it again to the user that field references.
    /// Nil when the lists hide the field from nobody.
    static func protectedSentence(_ field: String, _ lists: [String: [String]], _ words: Words) -> String? {
        let star = lists["*"].map { $0.contains(field) }
        let signedIn = lists["authenticated"].map { $0.contains(field) }
        let others = lists.filter { $0.key != "*" && $0.key != "authenticated" }.sorted { $0.key < $1.key }
        let showing = others.filter { !$0.value.contains(field) }.map { words.audience($0.key) }
        switch (star, signedIn) {
        case (false?, _):
            return nil  // `*` applies to every caller: a `*` list without the field leaves it visible
        case (true?, false?):
            return words.hiddenFromAnonymous(field)
        case (true?, _):
            return showing.isEmpty ? words.hiddenFromAll(field) : words.hiddenFromAllBut(field, showing)
        case (nil, true?):
            return words.hiddenFromSignedIn(field, showing)
        case (nil, false?):
            return nil  // every signed-in caller matches `authenticated`; the public has no list
        case (nil, nil):
            // Only role and user lists (userField: lists only ever show fields again).
            let hiding = others.filter { $0.value.contains(field) && !$0.key.hasPrefix("userField:") }.map { words.audience($0.key) }
            return hiding.isEmpty ? nil : words.hiddenFrom(field, hiding, showing)
        }
    }
}
