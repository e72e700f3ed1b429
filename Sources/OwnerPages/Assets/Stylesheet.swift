import ServiceCore

/// The one stylesheet of the pages: system fonts, light and dark through `prefers-color-scheme`,
/// a single column from 320 px up, visible focus, colours at WCAG AA contrast or better.
enum Stylesheet {
    static let text = """
        :root {
          color-scheme: light dark;
          --bg: #f2f2f7; --card: #ffffff; --text: #1d1d1f; --muted: #5b5b60; --line: #d1d1d6;
          --accent: #0a58ca; --accent-text: #ffffff; --danger: #b3261e; --credit: #1b6b32; --debit: #1d1d1f;
          --chip: #e5e5ea; --notice: #e6f0ff; --alert: #fde8e7;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #000000; --card: #1c1c1e; --text: #f5f5f7; --muted: #aeaeb2; --line: #3a3a3c;
            --accent: #4da3ff; --accent-text: #000000; --danger: #ff8a80; --credit: #5ed17a; --debit: #f5f5f7;
            --chip: #2c2c2e; --notice: #0d2540; --alert: #3b1513;
          }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html { -webkit-text-size-adjust: 100%; }
        body {
          margin: 0; background: var(--bg); color: var(--text);
          font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
        }
        a { color: var(--accent); }
        code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
        .skip { position: absolute; left: -999px; top: 0; }
        .skip:focus { left: 8px; top: 8px; background: var(--card); padding: 8px 12px; z-index: 2; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        header.top {
          display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px;
          padding: 12px 16px; background: var(--card); border-bottom: 1px solid var(--line);
        }
        .brand { font-weight: 600; }
        nav { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; }
        main { max-width: 44rem; margin: 0 auto; padding: 16px 12px 48px; }
        h1 { font-size: 1.5rem; line-height: 1.25; margin: 0.25rem 0 0.75rem; }
        h2 { font-size: 1.2rem; margin: 0 0 0.25rem; }
        h3 { font-size: 1rem; margin: 1rem 0 0.5rem; }
        .card { background: var(--card); border-radius: 14px; padding: 20px 16px; margin: 0 0 16px; border: 1px solid var(--line); }
        .card.narrow { max-width: 26rem; margin-left: auto; margin-right: auto; }
        .sheet { text-align: center; }
        .sheet p { text-align: left; }
        .app-icon {
          width: 56px; height: 56px; margin: 0 auto 12px; border-radius: 13px; background: var(--accent); color: var(--accent-text);
          display: flex; align-items: center; justify-content: center; font-size: 28px; font-weight: 700;
        }
        .lead { color: var(--muted); }
        .sub, .fine { color: var(--muted); font-size: 0.9rem; }
        .empty { color: var(--muted); }
        .notice { background: var(--notice); border-radius: 10px; padding: 10px 12px; }
        .alert { background: var(--alert); border-radius: 10px; padding: 10px 12px; }
        label { display: block; font-weight: 500; margin: 8px 0 4px; }
        input[type=password], input[type=search], input[type=date] {
          font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 10px;
          padding: 10px 12px; min-height: 44px; max-width: 100%;
        }
        input[type=password], input[type=search] { width: 100%; }
        input[type=checkbox] { width: 22px; height: 22px; margin: 0; flex: none; accent-color: var(--accent); }
        button, .button {
          font: inherit; font-weight: 600; display: inline-flex; align-items: center; justify-content: center; gap: 6px;
          min-height: 44px; padding: 10px 18px; border-radius: 12px; border: 1px solid var(--line);
          background: var(--card); color: var(--accent); text-decoration: none; cursor: pointer;
        }
        button.primary, .button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
        button.quiet { border-color: transparent; background: transparent; }
        button.danger { color: var(--danger); }
        .due { color: var(--danger); }
        ul.plain { list-style: none; margin: 0; padding: 0; }
        button.link { border: none; background: none; padding: 0; min-height: 0; color: var(--accent); font-weight: 500; }
        .wide { width: 100%; margin-top: 16px; }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        form.inline { display: inline; }
        .actions { display: flex; flex-wrap: wrap; gap: 10px; margin-top: 16px; }
        .actions.stacked { flex-direction: column; }
        .actions.stacked form { display: flex; flex-direction: column; gap: 10px; }
        fieldset { border: none; margin: 0; padding: 0; }
        legend { font-weight: 600; margin-bottom: 6px; }
        ul.choices, ul.transactions, ul.shares { list-style: none; margin: 0; padding: 0; }
        .choice { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; padding: 12px 0; border-top: 1px solid var(--line); }
        .choice > label { flex: 1 1 12rem; margin: 0; }
        .choice .name, .shares .name { display: block; font-weight: 600; }
        .choice .from { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; flex: 1 1 100%; padding-left: 34px; }
        .choice .from label { margin: 0; font-weight: 400; color: var(--muted); }
        .searchbar { display: flex; gap: 8px; }
        .tokens { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
        .tokens legend { float: left; width: 100%; font-size: 0.9rem; color: var(--muted); font-weight: 600; margin: 0; }
        .token { display: inline-flex; align-items: center; gap: 6px; background: var(--chip); border-radius: 999px; padding: 4px 12px 4px 8px; }
        .token label { margin: 0; font-weight: 500; font-size: 0.9rem; }
        .count { font-weight: 600; }
        ul.transactions li { display: flex; align-items: flex-start; gap: 12px; padding: 10px 0; border-top: 1px solid var(--line); }
        ul.transactions li > label { flex: 1; margin: 0; display: grid; grid-template-columns: 1fr auto; gap: 2px 12px; font-weight: 400; }
        ul.transactions .title { font-weight: 600; overflow-wrap: anywhere; }
        ul.transactions .sub { grid-column: 1 / -1; }
        ul.transactions.review li { display: block; }
        .amount { font-variant-numeric: tabular-nums; white-space: nowrap; font-weight: 600; }
        .amount.credit { color: var(--credit); }
        .amount.debit { color: var(--debit); }
        .shares li { padding: 12px 0; border-top: 1px solid var(--line); display: flex; flex-direction: column; gap: 8px; }
        form.row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
        form.row label { margin: 0; font-weight: 400; color: var(--muted); }
        .badge { display: inline-block; padding: 1px 10px; border-radius: 999px; background: var(--chip); font-weight: 600; }
        .revoke { margin-top: 16px; }
        body.console main { max-width: 76rem; }
        .scroll { overflow-x: auto; margin: 8px 0; }
        table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
        th, td { text-align: left; vertical-align: top; padding: 8px 10px; border-top: 1px solid var(--line); }
        thead th { border-top: none; color: var(--muted); font-weight: 600; white-space: nowrap; }
        caption { text-align: left; font-weight: 600; padding: 8px 0; }
        code.digest { word-break: break-all; }
        tr.error code:first-child { color: var(--danger); }
        input[type=text], input[type=file], select {
          font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 10px;
          padding: 8px 12px; min-height: 44px; max-width: 100%;
        }
        input[type=text] { width: 100%; }
        form.row input[type=search], form.row input[type=text] { width: auto; flex: 1 1 10rem; }
        p.check { display: flex; align-items: center; gap: 10px; }
        p.check label { margin: 0; }
        .cancel { margin-top: 8px; }
        @media (min-width: 40rem) {
          main { padding: 32px 24px 64px; }
          .card { padding: 24px; }
          .shares li { flex-direction: row; flex-wrap: wrap; align-items: center; }
          .shares .name { flex: 1 1 12rem; }
          .actions.stacked form { flex-direction: row; justify-content: center; }
          .actions.stacked { align-items: stretch; }
        }
        """
}

/// The pages' icon (browsers ask for one; without it every page logs a 404).
enum PageIcon {
    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0a58ca"/>\
        <rect x="6" y="10" width="20" height="14" rx="3" fill="#fff"/><rect x="6" y="14" width="20" height="3" fill="#0a58ca"/></svg>
        """
}
