import Mustache

/// The console's pages as mustache templates, compiled into the binary. Every `{{value}}` is
/// HTML-escaped by swift-mustache; the one unescaped `{{{content}}}` is a page this library
/// rendered itself.
enum ConsoleTemplates {
    /// The compiled templates, by name; a template that fails to parse is missing, which the
    /// template tests catch.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in sources { try? library.register(text, named: name) }
        return library
    }()

    /// Names of templates that did not compile (none, unless one was broken).
    static var broken: [String] { sources.keys.filter { library.getTemplate(named: $0) == nil }.sorted() }

    /// Renders `name` with `values`; empty when the template is missing.
    static func render(_ name: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: name) ?? ""
    }

    /// Every template by name: the core pages here, each area's in its own file
    /// (`ConsoleTemplates+Area.swift`), merged so a name can only be defined once.
    static let sources: [String: String] = {
        let core = [
            "layout": layout, "login": login, "users": users, "user": user, "audit": audit, "message": message, "events": events,
            "confirmDelete": confirmDelete,
        ]
        return areaSources.reduce(into: core) { all, area in all.merge(area) { first, _ in first } }
    }()

    /// The areas' templates (data, schema, operations, …), one dictionary per area's file.
    static let areaSources: [[String: String]] = [schemaSources, opsSources, dataSources, userSources]

    static let layout = """
        <!doctype html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="same-origin">
        <title>{{title}} · Rooftop {{t.console}}</title>
        <link rel="stylesheet" href="{{base}}/assets/console.css">
        <script src="{{base}}/assets/console.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">{{t.skip}}</a>
        <header class="bar">
        <span class="brand">Rooftop {{t.console}}</span>
        {{#signedIn}}
        <nav aria-label="{{t.navigation}}"><ul>
        {{#nav}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/nav}}
        </ul></nav>
        <form method="post" action="{{base}}/logout" class="logout">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <span class="who">{{adminName}} <small>({{roleLabel}})</small></span>
        <button type="submit">{{t.signOut}}</button>
        </form>
        {{/signedIn}}
        <a class="lang" href="?lang={{otherLang}}" lang="{{otherLang}}" hreflang="{{otherLang}}" aria-label="{{t.language}}: {{otherLangName}}">{{otherLangName}}</a>
        </header>
        <main id="main" tabindex="-1">
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        {{{content}}}
        </main>
        </body>
        </html>
        """

    static let login = """
        <h1>{{t.signIn}}</h1>
        <form method="post" action="{{base}}/login" class="card">
        <input type="hidden" name="csrf" value="{{loginCsrf}}">
        <label for="name">{{t.adminName}}</label>
        <input id="name" name="name" autocomplete="username" required value="{{name}}" autofocus>
        <label for="password">{{t.password}}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <label for="code">{{t.code}}</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" aria-describedby="code-hint">
        <p id="code-hint" class="hint">{{t.codeHint}}</p>
        <button type="submit">{{t.signIn}}</button>
        </form>
        """

    static let users = """
        <h1>{{t.users}}</h1>
        <form method="get" action="{{base}}/users" role="search" class="search">
        <label for="q">{{t.searchLabel}}</label>
        <div class="row"><input id="q" name="q" type="search" value="{{query}}" autocomplete="off"><button type="submit">{{t.search}}</button></div>
        </form>
        {{#searched}}
        {{#hasResults}}
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.username}}</th><th scope="col">{{t.email}}</th><th scope="col">objectId</th><th scope="col">{{t.created}}</th></tr></thead>
        <tbody>
        {{#results}}<tr><td><a href="{{base}}/users/{{id}}">{{username}}</a></td><td>{{email}}</td><td><code>{{id}}</code></td><td>{{created}}</td></tr>{{/results}}
        </tbody></table></div>
        {{/hasResults}}
        {{^results}}<p>{{t.noUsers}}</p>{{/results}}
        {{/searched}}
        """

    static let user = """
        <h1>{{username}}</h1>
        <section aria-labelledby="profile-h"><h2 id="profile-h">{{t.profile}}</h2>
        <dl class="facts">
        <dt>objectId</dt><dd><code>{{id}}</code></dd>
        <dt>{{t.email}}</dt><dd>{{email}}{{^email}}—{{/email}}</dd>
        <dt>{{t.emailState}}</dt><dd class="state-{{emailStateKind}}">{{emailState}}</dd>
        <dt>{{t.methods}}</dt><dd>{{#methods}}<span class="tag">{{.}}</span> {{/methods}}</dd>
        <dt>{{t.lockState}}</dt><dd class="state-{{lockKind}}">{{lockState}}</dd>
        <dt>{{t.created}}</dt><dd>{{created}}</dd>
        <dt>{{t.updated}}</dt><dd>{{updated}}</dd>
        </dl>
        {{#hasFields}}<h3>{{t.fields}}</h3><dl class="facts">{{#fields}}<dt>{{name}}</dt><dd><code>{{value}}</code></dd>{{/fields}}</dl>{{/hasFields}}
        </section>
        {{#canChange}}
        <section aria-labelledby="actions-h"><h2 id="actions-h">{{t.actions}}</h2>
        <div class="actions">
        {{#actions}}<form method="post" action="{{base}}/users/{{id}}/{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">{{label}}</button></form>{{/actions}}
        </div>
        </section>
        {{/canChange}}
        <section aria-labelledby="sessions-h"><h2 id="sessions-h">{{t.sessions}}</h2>
        {{#hasSessions}}
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.device}}</th><th scope="col">{{t.deviceType}}</th><th scope="col">{{t.app}}</th><th scope="col">{{t.network}}</th><th scope="col">{{t.created}}</th><th scope="col">{{t.lastUsed}}</th>{{#canChange}}<th scope="col"><span class="visually-hidden">{{t.actions}}</span></th>{{/canChange}}</tr></thead>
        <tbody>
        {{#sessions}}<tr><td>{{device}}</td><td>{{deviceType}}</td><td>{{app}}</td><td>{{network}}</td><td>{{created}}</td><td>{{lastUsed}}</td>{{#canChange}}<td><form method="post" action="{{base}}/users/{{id}}/sessions/{{sessionId}}/revoke"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" aria-label="{{t.revoke}} {{device}} {{created}}">{{t.revoke}}</button></form></td>{{/canChange}}</tr>{{/sessions}}
        </tbody></table></div>
        {{/hasSessions}}
        {{^sessions}}<p>{{t.noSessions}}</p>{{/sessions}}
        </section>
        {{> userEditSection}}
        {{> userOwnedSection}}
        {{> userViewAsSection}}
        <section aria-labelledby="events-h"><h2 id="events-h">{{t.recentEvents}}</h2>
        {{> events}}
        <p><a href="{{base}}/audit?user={{id}}">{{t.audit}} →</a></p>
        </section>
        {{> confirmDelete}}
        """

    static let events = """
        {{#hasEvents}}
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.time}}</th><th scope="col">{{t.event}}</th><th scope="col">{{t.user}}</th><th scope="col">{{t.admin}}</th><th scope="col">{{t.address}}</th><th scope="col">{{t.detail}}</th></tr></thead>
        <tbody>
        {{#events}}<tr><td>{{time}}</td><td><code>{{type}}</code></td><td>{{#userId}}<a href="{{base}}/users/{{userId}}">{{userId}}</a>{{/userId}}</td><td>{{admin}}</td><td>{{ip}}</td><td class="wrap">{{detail}}</td></tr>{{/events}}
        </tbody></table></div>
        {{/hasEvents}}
        {{^events}}<p>{{t.noEvents}}</p>{{/events}}
        """

    static let audit = """
        <h1>{{t.audit}}</h1>
        <form method="get" action="{{base}}/audit" class="filters" aria-label="{{t.filters}}">
        <div><label for="f-user">{{t.user}} (objectId)</label><input id="f-user" name="user" value="{{filter.user}}"></div>
        <div><label for="f-event">{{t.event}}</label><select id="f-event" name="event"><option value="">{{t.anyEvent}}</option>{{#eventTypes}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/eventTypes}}</select></div>
        <div><label for="f-since">{{t.since}}</label><input id="f-since" name="since" type="datetime-local" value="{{filter.since}}"></div>
        <div><label for="f-until">{{t.until}}</label><input id="f-until" name="until" type="datetime-local" value="{{filter.until}}"></div>
        <div><label for="f-ip">{{t.address}}</label><input id="f-ip" name="ip" value="{{filter.ip}}"></div>
        <div><button type="submit">{{t.apply}}</button></div>
        </form>
        {{> events}}
        {{#older}}<p><a href="{{older}}" rel="next">{{t.older}} →</a></p>{{/older}}
        """

    /// The delete form with a typed confirmation, on every page that deletes; shown when the
    /// page's values hold `deleteForm` (`ConsoleResponder.deleteForm`).
    static let confirmDelete = """
        {{#deleteForm}}
        <section aria-labelledby="delete-h" class="danger"><h2 id="delete-h">{{heading}}</h2>
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="confirm">{{label}}</label>
        <p class="hint" id="confirm-hint">{{hint}}</p>
        <div class="row"><input id="confirm" name="confirm" autocomplete="off" aria-describedby="confirm-hint" data-confirm-name="{{name}}" required>
        <button type="submit" class="destructive" data-confirm-button>{{t.delete}}</button></div>
        </form>
        </section>
        {{/deleteForm}}
        """

    static let message = """
        <h1>{{heading}}</h1>
        <p>{{text}}</p>
        """
}
