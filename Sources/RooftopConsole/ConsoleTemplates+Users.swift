/// The users area's templates: the edit form, the owned objects and "view as this user" on a
/// user's page, and the view's own page.
extension ConsoleTemplates {
    static let userSources: [String: String] = [
        "userEditSection": userEditSection, "userOwnedSection": userOwnedSection, "userViewAsSection": userViewAsSection,
        "userViewAs": userViewAs,
    ]

    static let userEditSection = """
        {{#canChange}}
        <section aria-labelledby="edit-h"><h2 id="edit-h">{{t.userEdit}}</h2>
        <p class="hint">{{t.userEditHint}}</p>
        <form method="post" action="{{base}}/users/{{id}}/edit" class="user-edit">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="orig" value="{{editOriginal}}">
        <label for="edit-username">{{t.username}}</label>
        <input id="edit-username" name="username" value="{{username}}" autocomplete="off" required>
        <label for="edit-email">{{t.email}}</label>
        <input id="edit-email" name="email" type="email" value="{{email}}" autocomplete="off">
        <label class="check"><input type="checkbox" name="emailVerified"{{#emailVerifiedChecked}} checked{{/emailVerifiedChecked}}> {{t.userEmailVerified}}</label>
        {{#editFields}}
        {{#isBoolean}}<label class="check"><input type="checkbox" name="field.{{name}}"{{#checked}} checked{{/checked}}> {{name}} <small>({{type}})</small></label>{{/isBoolean}}
        {{#isNumber}}<label for="{{inputId}}">{{name}} <small>({{type}})</small></label><input id="{{inputId}}" name="field.{{name}}" value="{{value}}" inputmode="decimal" autocomplete="off">{{/isNumber}}
        {{#isText}}<label for="{{inputId}}">{{name}} <small>({{type}})</small></label><input id="{{inputId}}" name="field.{{name}}" value="{{value}}" autocomplete="off">{{/isText}}
        {{#isMultiline}}<p>{{name}} <small>({{type}})</small>: {{t.userEditOnDataPage}}</p>{{/isMultiline}}
        {{/editFields}}
        <div><button type="submit">{{t.userSave}}</button></div>
        </form>
        </section>
        {{/canChange}}
        """

    static let userOwnedSection = """
        <section aria-labelledby="owned-h"><h2 id="owned-h">{{t.userOwned}}</h2>
        <p class="hint">{{t.userOwnedHint}}</p>
        {{#hasOwned}}
        {{#owned}}
        <h3><a href="{{base}}/data/{{classHref}}">{{className}}</a> <small>({{field}}: {{count}})</small></h3>
        <ul class="owned">{{#objects}}<li><a href="{{base}}/data/{{className}}/{{objectId}}"><code>{{objectId}}</code></a> <small>{{created}}</small></li>{{/objects}}</ul>
        {{/owned}}
        {{/hasOwned}}
        {{^hasOwned}}<p>{{t.userOwnsNothing}}</p>{{/hasOwned}}
        </section>
        """

    static let userViewAsSection = """
        <section aria-labelledby="viewas-h"><h2 id="viewas-h">{{t.userViewAs}}</h2>
        <p class="hint">{{t.userViewAsHint}}</p>
        <form method="get" action="{{base}}/users/{{id}}/view-as" class="row">
        <label for="viewas-class" class="visually-hidden">{{t.userClass}}</label>
        <select id="viewas-class" name="class" required>{{#viewClasses}}<option value="{{name}}">{{name}}</option>{{/viewClasses}}</select>
        <button type="submit">{{t.userView}}</button>
        </form>
        </section>
        """

    static let userViewAs = """
        <p><a href="{{base}}/users/{{id}}">← {{username}}</a></p>
        <h1>{{t.userViewAs}}: {{username}}</h1>
        <p class="hint">{{t.userViewAsHint}}</p>
        <form method="get" action="{{base}}/users/{{id}}/view-as" class="card wide">
        <label for="va-class">{{t.userClass}}</label>
        <select id="va-class" name="class" required>{{#classes}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/classes}}</select>
        <label for="va-where">{{t.userWhere}}</label>
        <textarea id="va-where" name="where" rows="3" spellcheck="false" aria-describedby="va-where-hint">{{where}}</textarea>
        <p class="hint" id="va-where-hint">{{t.userWhereHint}}</p>
        <label for="va-id">{{t.userGetById}}</label>
        <input id="va-id" name="objectId" value="{{objectId}}" autocomplete="off">
        <button type="submit">{{t.userView}}</button>
        </form>
        {{#searched}}
        <h2 id="va-results">{{className}}</h2>
        {{#hasResults}}
        <div class="scroll"><table class="view-as">
        <thead><tr><th scope="col">objectId</th><th scope="col">{{t.userObject}}</th></tr></thead>
        <tbody>
        {{#results}}<tr><td><a href="{{base}}/data/{{className}}/{{objectId}}"><code class="oid">{{objectId}}</code></a></td><td class="wrap"><code>{{json}}</code></td></tr>{{/results}}
        </tbody></table></div>
        {{/hasResults}}
        {{^hasResults}}<p>{{t.userSeesNothing}}</p>{{/hasResults}}
        {{/searched}}
        """
}
