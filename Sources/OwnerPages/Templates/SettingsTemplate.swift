import ServiceCore

extension PageTemplates {
    /// Settings: every client with its status, the accounts it sees and from when; share more,
    /// move a date, stop sharing one account, or stop everything.
    static let settings = """
        {{<layout}}{{$content}}
        <h1>{{t.settingsHeading}}</h1>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{^clients}}<section class="card"><p class="empty">{{t.noApps}}</p></section>{{/clients}}
        {{#clients}}
        <section class="card" aria-labelledby="client-{{anchor}}">
        <h2 id="client-{{anchor}}">{{name}}</h2>
        <p class="sub"><code>{{id}}</code> · <span class="badge {{status}}">{{statusLabel}}</span>{{#revoked}} · {{t.registrationRevoked}}{{/revoked}}</p>
        {{#hasShared}}
        <h3>{{t.sharedAccounts}}</h3>
        <ul class="shares">
        {{#shared}}
        <li>
        <span class="name">{{displayName}} <span class="sub">{{institutionName}}</span></span>
        <form method="post" action="/finance/settings/date" class="row">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        <input type="hidden" name="client" value="{{clientID}}">
        <input type="hidden" name="account" value="{{accountID}}">
        <label for="from-{{key}}">{{t.sharedFrom}}</label>
        <input type="date" id="from-{{key}}" name="from" value="{{fromValue}}">
        <button type="submit">{{t.saveDate}}</button>
        </form>
        <form method="post" action="/finance/settings/stop" class="row">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        <input type="hidden" name="client" value="{{clientID}}">
        <input type="hidden" name="account" value="{{accountID}}">
        <button type="submit" class="danger" aria-label="{{stopLabel}}">{{t.stopSharing}}</button>
        </form>
        </li>
        {{/shared}}
        </ul>
        {{/hasShared}}
        {{#hasUnshared}}
        <form method="post" action="/finance/settings/share">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        <input type="hidden" name="client" value="{{id}}">
        <fieldset>
        <legend>{{#hasShared}}{{t.shareMoreAccounts}}{{/hasShared}}{{^hasShared}}{{t.shareAccounts}}{{/hasShared}}</legend>
        <ul class="choices">
        {{#unshared}}
        <li class="choice">
        <input type="checkbox" id="add-{{key}}" name="share-{{key}}" value="on" data-date="addfrom-{{key}}">
        <label for="add-{{key}}"><span class="name">{{displayName}}</span> <span class="sub">{{institutionName}}</span></label>
        <span class="from">
        <label for="addfrom-{{key}}">{{t.shareFrom}}</label>
        <input type="date" id="addfrom-{{key}}" name="from-{{accountID}}" value="{{fromValue}}">
        </span>
        </li>
        {{/unshared}}
        </ul>
        </fieldset>
        <button type="submit">{{t.share}}</button>
        </form>
        {{/hasUnshared}}
        {{#canRevoke}}
        <form method="post" action="/finance/settings/revoke" class="revoke">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        <input type="hidden" name="client" value="{{id}}">
        <button type="submit" class="danger">{{stopAllLabel}}</button>
        </form>
        {{/canRevoke}}
        </section>
        {{/clients}}
        {{/content}}{{/layout}}
        """
}
