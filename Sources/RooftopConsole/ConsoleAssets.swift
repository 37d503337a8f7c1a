/// The console's style sheet and script, served by the binary (no external request).
enum ConsoleAssets {
    static let stylesheet = """
        :root { --ink: #1d2330; --muted: #5b6475; --line: #d6dae2; --bg: #f6f7f9; --card: #fff; --accent: #1f5fbf; --danger: #b3261e;
          --ok: #1e7a3c; font-family: system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Noto Sans JP", sans-serif; }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--ink); font-size: 16px; line-height: 1.5; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, main:focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
        .skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; z-index: 10; }
        .skip:focus { left: .5rem; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .bar { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; padding: .75rem 1.25rem; background: #18202e; color: #fff; }
        .bar a { color: #cfe0ff; }
        .brand { font-weight: 700; letter-spacing: .02em; }
        .bar nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; list-style: none; }
        .bar nav a { text-decoration: none; padding: .25rem 0; }
        .bar nav a[aria-current="page"] { color: #fff; border-bottom: 2px solid #fff; }
        .logout { display: flex; align-items: center; gap: .5rem; margin-left: auto; }
        .logout button { background: transparent; color: #fff; border-color: #8a97ad; }
        .who small { color: #b7c1d3; }
        .lang { white-space: nowrap; }
        main { max-width: 72rem; margin: 0 auto; padding: 1.25rem; }
        h1 { font-size: 1.6rem; margin: .25rem 0 1rem; word-break: break-word; }
        h2 { font-size: 1.2rem; margin: 1.75rem 0 .5rem; }
        h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
        section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .25rem 1rem 1rem; margin-bottom: 1rem; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; max-width: 26rem; }
        label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
        input, select { font: inherit; padding: .5rem .6rem; border: 1px solid #9aa3b2; border-radius: 6px; width: 100%; max-width: 28rem; background: #fff; }
        button { font: inherit; padding: .45rem .9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; min-height: 2.5rem; }
        button.destructive { background: var(--danger); border-color: var(--danger); }
        button:disabled { opacity: .5; cursor: not-allowed; }
        .card button { margin-top: 1rem; }
        .row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
        .row input { flex: 1 1 14rem; }
        .hint { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
        .notice { background: #e7f4ea; border: 1px solid #9fd0ad; padding: .6rem .8rem; border-radius: 6px; }
        .error { background: #fdeceb; border: 1px solid #f0a9a4; padding: .6rem .8rem; border-radius: 6px; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: .95rem; }
        th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; white-space: nowrap; }
        td.wrap { white-space: normal; min-width: 14rem; }
        th { color: var(--muted); font-weight: 600; white-space: nowrap; }
        dd code { word-break: break-all; }
        .facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .35rem 1rem; margin: 0; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; word-break: break-word; }
        .tag { display: inline-block; background: #eef1f6; border: 1px solid var(--line); border-radius: 999px; padding: 0 .5rem; font-size: .85rem; }
        .state-bad { color: var(--danger); font-weight: 600; }
        .state-good { color: var(--ok); }
        .actions { display: flex; flex-wrap: wrap; gap: .5rem; }
        .danger { border-color: #f0a9a4; }
        .filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .25rem 1rem; align-items: end; margin-bottom: 1rem; }
        .filters button { margin-top: .5rem; }
        .search { margin-bottom: 1rem; }
        @media (max-width: 600px) {
          main { padding: .75rem; }
          .bar { padding: .6rem .75rem; }
          .logout { margin-left: 0; }
          .facts { grid-template-columns: 1fr; }
          .facts dt { margin-top: .5rem; }
          h1 { font-size: 1.35rem; }
        }
        /* schema */
        main > .scroll { margin-bottom: 1rem; }
        .in-words ul { margin: .25rem 0; padding-left: 1.25rem; }
        .in-words li { margin: .2rem 0; }
        table.grid td { text-align: center; }
        table.grid input[type="checkbox"], label.check input { width: 1.25rem; height: 1.25rem; }
        label.check { display: flex; align-items: center; gap: .5rem; }
        label.check input { width: auto; }
        textarea { font: inherit; font-family: ui-monospace, monospace; width: 100%; max-width: 40rem; padding: .5rem .6rem; border: 1px solid #9aa3b2; border-radius: 6px; }
        .form-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: .25rem 1rem; align-items: start; }
        .form-grid select + select { margin-top: .25rem; }
        .form-grid label.check { margin-top: 2.4rem; }
        /* ops */
        .ops-mail { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--card); border: 1px solid var(--line); border-radius: 8px;
          padding: .75rem 1rem; font-size: .9rem; max-width: 100%; }
        .ops-links { margin: .25rem 0; padding-left: 1.25rem; }
        .ops-rates td { font-variant-numeric: tabular-nums; }
        /* data */
        td.num, th.num { text-align: right; }
        .where fieldset { border: 1px solid var(--line); border-radius: 8px; padding: .5rem 1rem 1rem; margin: 0 0 .75rem; background: var(--card); }
        .where legend { font-weight: 600; padding: 0 .25rem; }
        .filter-row { display: grid; grid-template-columns: minmax(8rem, 1fr) minmax(8rem, 1fr) minmax(8rem, 2fr); gap: .5rem; margin: .5rem 0; }
        .filter-row select, .filter-row input { max-width: none; }
        .where details { margin-top: .5rem; }
        .where .row { margin-bottom: 1rem; }
        .where .row label { margin: 0; }
        .where .row select { width: auto; }
        textarea { font: .9rem ui-monospace, SFMono-Regular, Menlo, monospace; width: 100%; padding: .5rem .6rem; border: 1px solid #9aa3b2; border-radius: 6px; }
        .data-table td { max-width: 22rem; overflow: hidden; text-overflow: ellipsis; }
        .editors .editor { margin-bottom: .5rem; }
        .editors input, .editors select { max-width: 36rem; }
        .editors .type { color: var(--muted); font-weight: 400; }
        .readonly { padding: .25rem 0; word-break: break-all; }
        table.acl { width: auto; min-width: 18rem; }
        table.acl th[scope="row"] { color: var(--ink); font-weight: 400; }
        table.acl td { text-align: center; }
        table.acl input[type="checkbox"], label.check input { width: 1.25rem; height: 1.25rem; }
        label.check { display: flex; width: fit-content; align-items: center; gap: .35rem; font-weight: 400; margin: .5rem .75rem .25rem 0; }
        .row label.check { margin-top: 0; }
        .scroll + section, .facts + section, .data-table + p { margin-top: 1rem; }
        .acl-add, .add-member { margin: .5rem 0 .75rem; }
        .members { padding-left: 1.25rem; }
        .members li { margin: .25rem 0; }
        form.inline { display: inline; margin-left: .5rem; }
        button.small { min-height: 2rem; padding: .15rem .6rem; font-size: .9rem; background: transparent; color: var(--danger); border-color: var(--danger); }
        @media (max-width: 600px) {
          .filter-row { grid-template-columns: 1fr 1fr; }
          .filter-row input { grid-column: 1 / -1; }
        }
        /* users */
        /* A visually hidden header inside a wide table is placed by its scroll box, not the page
           (it widened the phone page by the table's width). */
        .scroll { position: relative; }
        .user-edit label.check, label.check { display: flex; align-items: center; gap: .5rem; font-weight: 600; }
        label.check input { width: auto; }
        .user-edit button { margin-top: 1rem; }
        textarea { font: inherit; font-family: ui-monospace, monospace; padding: .5rem .6rem; border: 1px solid #9aa3b2; border-radius: 6px; width: 100%; max-width: 40rem; }
        .card.wide { max-width: 42rem; margin-top: .75rem; }
        .card.wide button { display: block; }
        ul.owned { margin: .25rem 0 .75rem; padding-left: 1.25rem; }
        ul.owned code { word-break: break-all; }
        table.view-as td.wrap { min-width: 20rem; }
        table.view-as td.wrap code { word-break: break-all; white-space: pre-wrap; }
        """

    /// The only script: the typed confirmation's button waits for the username (the server
    /// checks it again).
    static let script = """
        document.addEventListener("DOMContentLoaded", function () {
          document.querySelectorAll("[data-confirm-name]").forEach(function (input) {
            var button = input.form && input.form.querySelector("[data-confirm-button]");
            if (!button) { return; }
            var update = function () { button.disabled = input.value !== input.getAttribute("data-confirm-name"); };
            input.addEventListener("input", update);
            update();
          });
        });
        """
}
