/// The operations pages' templates: the status page with request rates, export and backup,
/// and the mail outbox.
extension ConsoleTemplates {
    static let opsSources: [String: String] = [
        "opsStatus": opsStatus, "opsExport": opsExport, "opsOutbox": opsOutbox, "opsMessage": opsMessage, "opsNoOutbox": opsNoOutbox,
    ]

    static let opsStatus = """
        <h1>{{t.status}}</h1>
        <section aria-labelledby="server-h"><h2 id="server-h">{{t.opsServer}}</h2>
        <dl class="facts">
        <dt>{{t.version}}</dt><dd>{{version}}</dd>
        <dt>{{t.database}}</dt><dd>{{database}}</dd>
        <dt>{{t.mailQueue}}</dt><dd>{{mailQueue}}</dd>
        <dt>{{t.uptime}}</dt><dd>{{uptime}}</dd>
        </dl>
        </section>
        <section aria-labelledby="rates-h"><h2 id="rates-h">{{t.opsRates}}</h2>
        {{#metrics}}
        <div class="scroll"><table class="ops-rates">
        <thead><tr><th scope="col">{{t.opsWindow}}</th><th scope="col">{{t.opsRequestsPerSecond}}</th><th scope="col">{{t.opsErrorsPerSecond}}</th></tr></thead>
        <tbody>
        {{#rates}}<tr><th scope="row">{{label}}</th><td>{{requests}}</td><td>{{errors}}</td></tr>{{/rates}}
        </tbody></table></div>
        {{#rates}}{{#pending}}<p class="hint ops-pending">{{label}}: {{t.opsCollecting}}</p>{{/pending}}{{/rates}}
        <p class="hint">{{t.opsRatesHint}}</p>
        {{#pool}}
        <h3>{{t.opsPool}}</h3>
        <dl class="facts ops-pool">
        <dt>{{t.opsPoolInUse}}</dt><dd>{{inUse}} / {{capacity}}</dd>
        <dt>{{t.opsPoolWaiting}}</dt><dd>{{waiting}}</dd>
        </dl>
        {{/pool}}
        {{/metrics}}
        {{#metricsOff}}<p>{{t.opsMetricsOff}}</p>{{/metricsOff}}
        </section>
        <section aria-labelledby="tools-h"><h2 id="tools-h">{{t.opsTools}}</h2>
        <ul class="ops-links"><li><a href="{{base}}/export">{{t.opsExport}}</a></li><li><a href="{{base}}/outbox">{{t.opsOutbox}}</a></li></ul>
        </section>
        """

    static let opsExport = """
        <h1>{{t.opsExport}}</h1>
        {{^owner}}<p class="error" role="alert">{{t.opsOwnerOnly}}</p>{{/owner}}
        <section aria-labelledby="export-h"><h2 id="export-h">{{t.opsExportHeading}}</h2>
        <p>{{t.opsExportText}}</p>
        <p class="hint">{{t.opsSecretsHint}}</p>
        {{#owner}}<form method="post" action="{{base}}/export"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">{{t.opsDownloadExport}}</button></form>{{/owner}}
        </section>
        <section aria-labelledby="backup-h"><h2 id="backup-h">{{t.opsBackup}}</h2>
        {{#canBackup}}
        <p>{{t.opsBackupText}}</p>
        {{#owner}}<form method="post" action="{{base}}/backup"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">{{t.opsDownloadBackup}}</button></form>{{/owner}}
        {{/canBackup}}
        {{^canBackup}}<p>{{t.opsBackupPostgres}} <a href="https://www.postgresql.org/docs/current/app-pgdump.html" rel="noreferrer">pg_dump</a></p>{{/canBackup}}
        </section>
        """

    static let opsOutbox = """
        <h1>{{t.opsOutbox}}</h1>
        <p class="hint">{{t.opsOutboxHint}}</p>
        {{#hasMessages}}
        <div class="scroll"><table>
        <thead><tr><th scope="col">{{t.opsSubject}}</th><th scope="col">{{t.opsTo}}</th><th scope="col">{{t.time}}</th></tr></thead>
        <tbody>
        {{#messages}}<tr><td class="wrap"><a href="{{base}}/outbox/{{name}}">{{subject}}</a></td><td>{{to}}</td><td>{{date}}</td></tr>{{/messages}}
        </tbody></table></div>
        <p class="hint">{{t.opsPage}} {{page}} / {{pages}} · {{count}} {{t.opsMessages}}</p>
        <p class="row">{{#newer}}<a href="{{newer}}" rel="prev">← {{t.opsNewer}}</a>{{/newer}} {{#older}}<a href="{{older}}" rel="next">{{t.opsOlder}} →</a>{{/older}}</p>
        {{/hasMessages}}
        {{^hasMessages}}<p>{{t.opsNoMessages}}</p>{{/hasMessages}}
        """

    static let opsMessage = """
        <h1>{{subject}}</h1>
        <p><a href="{{base}}/outbox">← {{t.opsOutbox}}</a></p>
        <dl class="facts">
        <dt>{{t.opsTo}}</dt><dd>{{to}}</dd>
        <dt>{{t.time}}</dt><dd>{{date}}</dd>
        </dl>
        <p class="hint">{{t.opsLinksHint}}</p>
        <pre class="ops-mail">{{text}}</pre>
        """

    static let opsNoOutbox = """
        <h1>{{t.opsOutbox}}</h1>
        <p>{{t.opsOutboxOff}}</p>
        <p><a href="{{base}}/status">{{t.status}}</a></p>
        """
}
