import Hummingbird
import RooftopCore
import RooftopServices

/// The hosted pages' way through the API: the same route table, rate limits and body limits
/// as the JSON routes, answered as HTML.
extension ParseResponder {
    /// Pages opened from emailed links: HTML, no application id, form bodies; the same checks
    /// (rate limits, body size) as any route of the table.
    func page(
        _ request: Request, segments: [String], resolved: ResolvedRoute?, origin: RequestOrigin, expectation: ContinueResponse?
    ) async throws -> Response {
        let base = config.publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let pages = HostedPages(
            accounts: routes.accounts, appId: config.appId, templates: config.pages, origin: origin,
            serverURL: base ?? "http://\(request.head.authority ?? "127.0.0.1")\(config.mountPath)")
        var page = PageRequest(request: request, segments: segments, pathParameters: [:])
        let parseRequest = ParseRequest(
            method: RouteMethod(request.method) ?? .get, segments: segments, params: [:], body: [:], principal: .anonymous, origin: origin)
        guard let resolved, case .page(let handler) = resolved.route.handler else {
            let check = { try await routes.check(parseRequest, against: nil, method: request.method.rawValue) }
            return try await Self.refusingAsPage(pages, page, check) ?? pages.notFound(page)
        }
        let route = resolved.route
        var routed = parseRequest
        routed.pathParameters = resolved.parameters
        page.pathParameters = resolved.parameters
        // A form that names an account (the reset request) is counted once its (bounded) body
        // is read, so the per-account limits of the API route it stands for apply to it too.
        if route.account == nil, let refused = try await Self.refusingAsPage(pages, page, { try await routes.check(routed, against: route) }) {
            return refused
        }
        if case .form(let limit) = route.body {
            try Self.refuseDeclaredLength(request, limit: limit)
            await expectation?.send()
            page.form = URLEncodedForm.parse(String(buffer: try await request.body.collect(upTo: limit)))
        }
        if route.account != nil {
            var named = routed
            named.body = page.form.mapValues(JSON.string)
            if let refused = try await Self.refusingAsPage(pages, page, { try await routes.check(named, against: route) }) { return refused }
        }
        return try await handler(pages, page)
    }

    /// Runs `check`; a rate limit it hits becomes the hosted "too many attempts" page (an
    /// `XMLHttpRequest` post keeps Parse's JSON), so a person at a form never reads raw JSON.
    /// Returns nil when `check` passes.
    static func refusingAsPage(_ pages: HostedPages, _ page: PageRequest, _ check: () async throws -> Void) async throws -> Response? {
        do {
            try await check()
            return nil
        } catch let limited as RateLimiter.Limited {
            guard let answer = pages.tooManyRequests(page, retryAfter: limited.retryAfter) else { throw limited }
            return answer
        }
    }
}
