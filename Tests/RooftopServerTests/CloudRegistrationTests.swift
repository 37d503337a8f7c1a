import RooftopServer
import RooftopServices
import Testing

/// A trigger registered where it can never run is refused before the server starts, with
/// Parse Server's words: sessions are not written through the object path.
@Suite struct CloudRegistrationTests {
    @Test func sessionTriggersOtherThanAfterLogoutAreProblems() {
        var cloud = CloudCode()
        cloud.afterLogout { _ in }
        cloud.beforeSave("Note") { _ in }
        #expect(cloud.handlers.problems.isEmpty)
        cloud.beforeSave("_Session") { _ in }
        cloud.afterDelete("_Session") { _ in }
        #expect(
            cloud.handlers.problems == [
                "afterDelete on _Session: Only the afterLogout trigger is allowed for the _Session class.",
                "beforeSave on _Session: Only the afterLogout trigger is allowed for the _Session class.",
            ])
    }
}
