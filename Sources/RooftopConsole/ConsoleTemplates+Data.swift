/// The data and roles pages' templates.
extension ConsoleTemplates {
    static let dataSources: [String: String] = [
        "dataClasses": dataClasses, "dataTable": dataTable, "dataObject": dataObject, "dataACL": dataACL, "dataDeleted": dataDeleted,
        "dataRoles": dataRoles, "dataRole": dataRole,
    ]

    static let dataClasses = """
        <h1>{{t.data}}</h1>
        <p class="hint">{{t.dataCountHint}}</p>
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.dataClass}}</th><th scope="col" class="num">{{t.dataObjects}}</th><th scope="col" class="num">{{t.dataFields}}</th><th scope="col">{{t.dataSchema}}</th></tr></thead>
        <tbody>
        {{#classes}}<tr><td><a href="{{base}}/data/{{name}}">{{name}}</a></td><td class="num">{{count}}</td><td class="num">{{fields}}</td><td><a href="{{base}}/schema/{{name}}" aria-label="{{t.dataSchema}}: {{name}}">{{t.dataSchema}}</a></td></tr>{{/classes}}
        </tbody></table></div>
        """

    static let dataTable = """
        <h1>{{className}}</h1>
        <p class="row"><a href="{{schemaHref}}">{{t.dataSchema}}</a>{{#canChange}} · <a href="{{newHref}}">{{t.dataNew}}</a>{{/canChange}}</p>
        <form method="get" action="{{path}}" class="where" aria-label="{{t.filters}}">
        <fieldset><legend>{{t.dataWhere}}</legend>
        {{#filters}}<div class="filter-row">
        <label for="f{{index}}" class="visually-hidden">{{t.dataField}} {{number}}</label>
        <select id="f{{index}}" name="f{{index}}"><option value="">{{t.dataField}}</option>{{#fields}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/fields}}</select>
        <label for="o{{index}}" class="visually-hidden">{{t.dataOperator}} {{number}}</label>
        <select id="o{{index}}" name="o{{index}}">{{#operators}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/operators}}</select>
        <label for="v{{index}}" class="visually-hidden">{{t.dataValue}} {{number}}</label>
        <input id="v{{index}}" name="v{{index}}" value="{{value}}" placeholder="{{t.dataValue}}">
        </div>{{/filters}}
        <details{{#hasAdvanced}} open{{/hasAdvanced}}><summary>{{t.dataAdvanced}}</summary>
        <label for="where">{{t.dataWhereJSON}}</label>
        <textarea id="where" name="where" rows="3" spellcheck="false">{{advanced}}</textarea>
        </details>
        </fieldset>
        <div class="row">
        <label for="sort">{{t.dataSort}}</label>
        <select id="sort" name="sort">{{#sortFields}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/sortFields}}</select>
        <label for="dir" class="visually-hidden">{{t.dataDirection}}</label>
        <select id="dir" name="dir"><option value="asc">{{t.dataAscending}}</option><option value="desc"{{#descending}} selected{{/descending}}>{{t.dataDescending}}</option></select>
        <button type="submit">{{t.apply}}</button>
        </div>
        </form>
        {{#hasRows}}
        <div class="scroll data-table"><table>
        <thead><tr>{{#columns}}<th scope="col"{{#sorted}} aria-sort="{{sorted}}"{{/sorted}}>{{#href}}<a href="{{href}}">{{name}}</a>{{/href}}{{^href}}{{name}}{{/href}} {{arrow}}</th>{{/columns}}</tr></thead>
        <tbody>
        {{#rows}}<tr><td><a href="{{href}}"><code>{{id}}</code></a></td>{{#cells}}<td>{{.}}</td>{{/cells}}</tr>{{/rows}}
        </tbody></table></div>
        {{/hasRows}}
        {{^hasRows}}<p>{{t.dataNoObjects}}</p>{{/hasRows}}
        <p class="row">{{#first}}<a href="{{first}}">← {{t.dataFirstPage}}</a>{{/first}} {{#next}}<a href="{{next}}" rel="next">{{t.dataNextPage}} →</a>{{/next}}</p>
        """

    static let dataObject = """
        <p><a href="{{classHref}}">← {{className}}</a></p>
        <h1>{{className}} {{#id}}<code>{{id}}</code>{{/id}}{{#isNew}}· {{t.dataNew}}{{/isNew}}</h1>
        {{#readOnlyClass}}<p class="hint">{{t.dataSessionReadOnly}}</p>{{/readOnlyClass}}
        {{#userHref}}<p class="hint">{{t.dataUserHint}} <a href="{{userHref}}">{{t.dataUserPage}} →</a></p>{{/userHref}}
        {{#roleHref}}<p><a href="{{roleHref}}">{{t.dataRolePage}} →</a></p>{{/roleHref}}
        {{^isNew}}<dl class="facts"><dt>objectId</dt><dd><code>{{id}}</code></dd><dt>{{t.created}}</dt><dd>{{created}}</dd><dt>{{t.updated}}</dt><dd>{{updated}}</dd></dl>{{/isNew}}
        <section aria-labelledby="fields-h"><h2 id="fields-h">{{t.dataFields}}</h2>
        {{#canChange}}<form method="post" action="{{#isNew}}{{classHref}}/new{{/isNew}}{{^isNew}}{{action}}/save{{/isNew}}" class="editors">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="orig" value="{{original}}">{{/canChange}}
        {{^canChange}}<div class="editors">{{/canChange}}
        {{#fields}}<div class="editor">
        <label for="v-{{name}}">{{name}} <small class="type">{{type}}{{#target}} → {{target}}{{/target}}</small></label>
        {{#editable}}
        {{#kind_text}}<input id="v-{{name}}" name="v:{{name}}" value="{{value}}">{{/kind_text}}
        {{#kind_number}}<input id="v-{{name}}" name="v:{{name}}" type="number" step="any" value="{{value}}">{{/kind_number}}
        {{#kind_boolean}}<select id="v-{{name}}" name="v:{{name}}"><option value="">—</option><option value="true"{{#isTrue}} selected{{/isTrue}}>true</option><option value="false"{{#isFalse}} selected{{/isFalse}}>false</option></select>{{/kind_boolean}}
        {{#kind_date}}<input id="v-{{name}}" name="v:{{name}}" type="datetime-local" step="1" value="{{value}}" aria-describedby="utc-hint">{{/kind_date}}
        {{#kind_pointer}}<input id="v-{{name}}" name="v:{{name}}" value="{{value}}" placeholder="objectId" autocomplete="off">{{#targetHref}} <a href="{{targetHref}}">{{t.dataOpen}}</a>{{/targetHref}}{{/kind_pointer}}
        {{#kind_geo}}<div class="row"><input id="v-{{name}}" name="v:{{name}}" type="number" step="any" value="{{lat}}" aria-label="{{name}} {{t.dataLatitude}}" placeholder="{{t.dataLatitude}}"><input name="lng:{{name}}" type="number" step="any" value="{{lng}}" aria-label="{{name}} {{t.dataLongitude}}" placeholder="{{t.dataLongitude}}"></div>{{/kind_geo}}
        {{#kind_json}}<textarea id="v-{{name}}" name="v:{{name}}" rows="3" spellcheck="false">{{value}}</textarea>{{/kind_json}}
        {{/editable}}
        {{^editable}}
        <div id="v-{{name}}" class="readonly">{{#relationHref}}<a href="{{relationHref}}">{{t.dataRelated}} ({{target}})</a>{{/relationHref}}{{#fileURL}}<a href="{{fileURL}}">{{fileName}}</a>{{/fileURL}}{{^fileURL}}{{^relationHref}}<code>{{value}}</code>{{/relationHref}}{{/fileURL}}</div>
        {{/editable}}
        </div>{{/fields}}
        <p class="hint" id="utc-hint">{{t.dataEditorHint}}</p>
        {{#canChange}}<button type="submit">{{#isNew}}{{t.dataCreate}}{{/isNew}}{{^isNew}}{{t.dataSave}}{{/isNew}}</button>
        </form>{{/canChange}}
        {{^canChange}}</div>{{/canChange}}
        </section>
        {{^isNew}}{{> dataACL}}{{/isNew}}
        {{> confirmDelete}}
        """

    static let dataACL = """
        <section aria-labelledby="acl-h"><h2 id="acl-h">{{t.dataACL}}</h2>
        {{#aclEditable}}<form method="post" action="{{action}}/acl">
        <input type="hidden" name="csrf" value="{{csrf}}">{{/aclEditable}}
        <div class="scroll"><table class="acl">
        <thead><tr><th scope="col">{{t.dataWho}}</th><th scope="col">{{t.dataRead}}</th><th scope="col">{{t.dataWrite}}</th></tr></thead>
        <tbody>
        {{#acl}}<tr><th scope="row">{{#userHref}}<a href="{{userHref}}">{{label}}</a>{{/userHref}}{{^userHref}}{{label}}{{/userHref}}</th>
        <td><input type="checkbox" name="r:{{key}}" aria-label="{{t.dataRead}}: {{label}}"{{#read}} checked{{/read}}{{^aclEditable}} disabled{{/aclEditable}}></td>
        <td><input type="checkbox" name="w:{{key}}" aria-label="{{t.dataWrite}}: {{label}}"{{#write}} checked{{/write}}{{^aclEditable}} disabled{{/aclEditable}}></td></tr>{{/acl}}
        {{^acl}}<tr><td colspan="3">{{t.dataMasterOnly}}</td></tr>{{/acl}}
        </tbody></table></div>
        {{#aclEditable}}
        <div class="acl-add">
        <label for="addKey">{{t.dataAddEntry}}</label>
        <p class="hint" id="add-hint">{{t.dataAddHint}}</p>
        <div class="row"><input id="addKey" name="addKey" autocomplete="off" aria-describedby="add-hint">
        <label class="check"><input type="checkbox" name="addRead" checked> {{t.dataRead}}</label>
        <label class="check"><input type="checkbox" name="addWrite"> {{t.dataWrite}}</label></div>
        </div>
        <button type="submit">{{t.dataSaveACL}}</button>
        </form>
        {{/aclEditable}}
        </section>
        """

    static let dataDeleted = """
        <h1>{{className}}</h1>
        <p><a href="{{base}}/data/{{className}}">← {{className}}</a></p>
        """

    static let dataRoles = """
        <h1>{{t.roles}}</h1>
        {{#hasRoles}}
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.dataRoleName}}</th><th scope="col">objectId</th><th scope="col">{{t.dataACL}}</th></tr></thead>
        <tbody>
        {{#roles}}<tr><td><a href="{{base}}/roles/{{id}}">{{name}}</a></td><td><code>{{id}}</code></td><td>{{acl}}</td></tr>{{/roles}}
        </tbody></table></div>
        {{/hasRoles}}
        {{^hasRoles}}<p>{{t.dataNoRoles}}</p>{{/hasRoles}}
        {{#next}}<p><a href="{{next}}" rel="next">{{t.dataNextPage}} →</a></p>{{/next}}
        {{#canChange}}
        <section aria-labelledby="new-role-h"><h2 id="new-role-h">{{t.dataNewRole}}</h2>
        <form method="post" action="{{base}}/roles">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="role-name">{{t.dataRoleName}}</label>
        <p class="hint" id="role-name-hint">{{t.dataRoleNameHint}}</p>
        <input id="role-name" name="name" value="{{typedName}}" required maxlength="128" aria-describedby="role-name-hint">
        <label class="check"><input type="checkbox" name="publicRead" checked> {{t.dataPublicRead}}</label>
        <label class="check"><input type="checkbox" name="publicWrite"> {{t.dataPublicWrite}}</label>
        <button type="submit">{{t.dataCreate}}</button>
        </form>
        </section>
        {{/canChange}}
        """

    static let dataRole = """
        <p><a href="{{base}}/roles">← {{t.roles}}</a></p>
        <h1>{{name}}</h1>
        <dl class="facts"><dt>objectId</dt><dd><code>{{roleId}}</code></dd><dt>{{t.dataACL}}</dt><dd>{{acl}} · <a href="{{objectHref}}">{{t.dataEditACL}}</a></dd></dl>
        <section aria-labelledby="members-h"><h2 id="members-h">{{t.dataRoleUsers}}</h2>
        {{#hasUsers}}<ul class="members">{{#users}}<li><a href="{{base}}/users/{{id}}">{{name}}</a> <code>{{id}}</code>{{#canChange}}
        <form method="post" action="{{base}}/roles/{{roleId}}/remove-user" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="member" value="{{id}}"><button type="submit" class="small" aria-label="{{t.dataRemove}}: {{name}}">{{t.dataRemove}}</button></form>{{/canChange}}</li>{{/users}}</ul>{{/hasUsers}}
        {{^hasUsers}}<p>{{t.dataNoMembers}}</p>{{/hasUsers}}
        {{#canChange}}<form method="post" action="{{base}}/roles/{{roleId}}/add-user" class="add-member">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="add-user">{{t.dataAddUser}}</label>
        <div class="row"><input id="add-user" name="member" autocomplete="off" placeholder="{{t.dataUserOrId}}" required><button type="submit">{{t.dataAdd}}</button></div>
        </form>{{/canChange}}
        </section>
        <section aria-labelledby="children-h"><h2 id="children-h">{{t.dataChildRoles}}</h2>
        <p class="hint">{{t.dataChildRolesHint}}</p>
        {{#hasChildren}}<ul class="members">{{#children}}<li><a href="{{base}}/roles/{{id}}">{{name}}</a>{{#canChange}}
        <form method="post" action="{{base}}/roles/{{roleId}}/remove-role" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="member" value="{{id}}"><button type="submit" class="small" aria-label="{{t.dataRemove}}: {{name}}">{{t.dataRemove}}</button></form>{{/canChange}}</li>{{/children}}</ul>{{/hasChildren}}
        {{^hasChildren}}<p>{{t.dataNoChildRoles}}</p>{{/hasChildren}}
        {{#canChange}}<form method="post" action="{{base}}/roles/{{roleId}}/add-role" class="add-member">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="add-role">{{t.dataAddRole}}</label>
        <div class="row"><input id="add-role" name="member" autocomplete="off" placeholder="{{t.dataRoleOrId}}" required><button type="submit">{{t.dataAdd}}</button></div>
        </form>{{/canChange}}
        </section>
        <section aria-labelledby="parents-h"><h2 id="parents-h">{{t.dataParentRoles}}</h2>
        <p class="hint">{{t.dataParentRolesHint}}</p>
        {{#hasParents}}<ul class="members">{{#parents}}<li><a href="{{base}}/roles/{{id}}">{{name}}</a></li>{{/parents}}</ul>{{/hasParents}}
        {{^hasParents}}<p>{{t.dataNoParentRoles}}</p>{{/hasParents}}
        </section>
        """
}
