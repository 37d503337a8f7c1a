extension ConsoleTemplates {
    /// The schema pages: the class list and one class's fields, indexes and permissions.
    static let schemaSources: [String: String] = ["schemaList": schemaList, "schemaClass": schemaClass, "schemaPermissions": schemaPermissions]

    static let schemaList = """
        <h1>{{t.schemaTitle}}</h1>
        <p class="hint">{{t.schemaIntro}}</p>
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.schemaClass}}</th><th scope="col">{{t.schemaFields}}</th><th scope="col">{{t.schemaIndexes}}</th></tr></thead>
        <tbody>
        {{#classes}}<tr><td><a href="{{base}}/schema/{{path}}">{{name}}</a></td><td>{{fieldCount}}</td><td>{{indexCount}}</td></tr>{{/classes}}
        </tbody></table></div>
        {{#canChange}}
        <section aria-labelledby="create-h"><h2 id="create-h">{{t.schemaCreateClass}}</h2>
        <form method="post" action="{{base}}/schema">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="className">{{t.schemaClassName}}</label>
        <p class="hint" id="className-hint">{{t.schemaClassNameHint}}</p>
        <div class="row"><input id="className" name="className" value="{{newName}}" autocomplete="off" aria-describedby="className-hint" required>
        <button type="submit">{{t.schemaCreate}}</button></div>
        </form>
        </section>
        {{/canChange}}
        """

    static let schemaClass = """
        <p><a href="{{base}}/schema">← {{t.schemaTitle}}</a> · <a href="{{base}}/data/{{classPath}}">{{t.data}}</a></p>
        <h1>{{className}}</h1>
        <section aria-labelledby="words-h" class="in-words"><h2 id="words-h">{{t.schemaInWords}}</h2>
        <ul>{{#sentences}}<li>{{#parts}}{{#code}}<code>{{text}}</code>{{/code}}{{^code}}{{text}}{{/code}}{{/parts}}</li>{{/sentences}}</ul>
        </section>
        <section aria-labelledby="fields-h"><h2 id="fields-h">{{t.schemaFields}}</h2>
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.schemaFieldName}}</th><th scope="col">{{t.schemaType}}</th><th scope="col">{{t.schemaTarget}}</th><th scope="col">{{t.schemaRequired}}</th><th scope="col">{{t.schemaDefault}}</th></tr></thead>
        <tbody>
        {{#fields}}<tr><td><code>{{name}}</code>{{#builtIn}} <small class="hint">{{t.schemaBuiltIn}}</small>{{/builtIn}}</td><td>{{type}}</td><td>{{target}}</td><td>{{required}}</td><td class="wrap"><code>{{defaultValue}}</code></td></tr>{{/fields}}
        </tbody></table></div>
        {{#canChange}}
        <h3 id="add-field-h">{{t.schemaAddField}}</h3>
        <form method="post" action="{{base}}/schema/{{classPath}}/fields" aria-labelledby="add-field-h">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <div class="form-grid">
        <div><label for="f-name">{{t.schemaFieldName}}</label><input id="f-name" name="name" autocomplete="off" required></div>
        <div><label for="f-type">{{t.schemaType}}</label><select id="f-type" name="type">{{#types}}<option>{{.}}</option>{{/types}}</select></div>
        <div><label for="f-target">{{t.schemaTarget}}</label><select id="f-target" name="targetClass" aria-describedby="f-target-hint"><option value=""></option>{{#classes}}<option>{{.}}</option>{{/classes}}</select><p class="hint" id="f-target-hint">{{t.schemaTargetHint}}</p></div>
        <div><label for="f-default">{{t.schemaDefault}}</label><input id="f-default" name="defaultValue" autocomplete="off" aria-describedby="f-default-hint"><p class="hint" id="f-default-hint">{{t.schemaDefaultHint}}</p></div>
        <div><label class="check"><input type="checkbox" name="required" value="on"> {{t.schemaRequired}}</label></div>
        </div>
        <p><button type="submit">{{t.schemaAddField}}</button></p>
        </form>
        {{#hasRemovable}}
        <h3 id="remove-field-h">{{t.schemaRemoveField}}</h3>
        <form method="post" action="{{base}}/schema/{{classPath}}/remove-field" aria-labelledby="remove-field-h">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <div class="form-grid">
        <div><label for="rf-field">{{t.schemaFieldName}}</label><select id="rf-field" name="field">{{#removable}}<option>{{.}}</option>{{/removable}}</select></div>
        <div><label for="rf-confirm">{{t.schemaConfirmField}}</label><input id="rf-confirm" name="confirm" autocomplete="off" required aria-describedby="rf-hint"><p class="hint" id="rf-hint">{{t.schemaRemoveFieldHint}}</p></div>
        </div>
        <p><button type="submit" class="destructive">{{t.schemaRemove}}</button></p>
        </form>
        {{/hasRemovable}}
        {{/canChange}}
        </section>
        <section aria-labelledby="indexes-h"><h2 id="indexes-h">{{t.schemaIndexes}}</h2>
        {{#hasIndexes}}
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.schemaIndexName}}</th><th scope="col">{{t.schemaFields}}</th>{{#canChange}}<th scope="col"><span class="visually-hidden">{{t.actions}}</span></th>{{/canChange}}</tr></thead>
        <tbody>
        {{#indexes}}<tr><td><code>{{name}}</code></td><td>{{keys}}</td>{{#canChange}}<td><form method="post" action="{{base}}/schema/{{classPath}}/remove-index"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="index" value="{{name}}"><button type="submit" class="destructive" aria-label="{{t.schemaRemove}} {{name}}">{{t.schemaRemove}}</button></form></td>{{/canChange}}</tr>{{/indexes}}
        </tbody></table></div>
        {{/hasIndexes}}
        {{^indexes}}<p>{{t.schemaNoIndexes}}</p>{{/indexes}}
        {{#canChange}}
        <h3 id="add-index-h">{{t.schemaAddIndex}}</h3>
        <form method="post" action="{{base}}/schema/{{classPath}}/indexes" aria-labelledby="add-index-h">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <div class="form-grid">
        <div><label for="i-name">{{t.schemaIndexName}}</label><input id="i-name" name="index" autocomplete="off" required></div>
        {{#slots}}<div><label for="i-field{{slot}}">{{t.schemaFieldName}} {{slot}}</label><select id="i-field{{slot}}" name="field{{slot}}"><option value=""></option>{{#indexable}}<option>{{.}}</option>{{/indexable}}</select>
        <select name="direction{{slot}}" aria-label="{{t.schemaDirection}} {{slot}}"><option value="1">{{t.schemaAscending}}</option><option value="-1">{{t.schemaDescending}}</option></select></div>{{/slots}}
        </div>
        <p><button type="submit">{{t.schemaAddIndex}}</button></p>
        </form>
        {{/canChange}}
        </section>
        {{> schemaPermissions}}
        {{> confirmDelete}}
        """

    static let schemaPermissions = """
        <section aria-labelledby="clp-h"><h2 id="clp-h">{{t.schemaPermissions}}</h2>
        <p class="hint">{{t.schemaPermissionsHint}}</p>
        {{#canChange}}<form method="post" action="{{base}}/schema/{{classPath}}/permissions">
        <input type="hidden" name="csrf" value="{{csrf}}">{{/canChange}}
        <div class="scroll"><table class="grid">
        <thead><tr><th scope="col">{{t.schemaOperation}}</th>{{#columns}}<th scope="col" class="col-{{kind}}">{{label}}</th>{{/columns}}</tr></thead>
        <tbody>
        {{#permissionRows}}<tr><th scope="row"><code>{{row}}</code></th>{{#cells}}<td>{{#offered}}<input type="checkbox" name="{{name}}" value="on" aria-label="{{label}}"{{#checked}} checked{{/checked}}{{^canChange}} disabled{{/canChange}}>{{/offered}}</td>{{/cells}}</tr>{{/permissionRows}}
        </tbody></table></div>
        <label for="newEntry">{{t.schemaNewAudience}}</label>
        <p class="hint" id="newEntry-hint">{{t.schemaNewAudienceHint}}</p>
        <input id="newEntry" name="newEntry" autocomplete="off" aria-describedby="newEntry-hint"{{^canChange}} disabled{{/canChange}}>
        <label for="protected">{{t.schemaProtected}}</label>
        <p class="hint" id="protected-hint">{{t.schemaProtectedHint}}</p>
        <textarea id="protected" name="protected" rows="4" aria-describedby="protected-hint"{{^canChange}} disabled{{/canChange}}>{{protectedText}}</textarea>
        <input type="hidden" name="end" value="1">
        {{#canChange}}<p><button type="submit">{{t.schemaSavePermissions}}</button></p>
        </form>{{/canChange}}
        </section>
        """
}
