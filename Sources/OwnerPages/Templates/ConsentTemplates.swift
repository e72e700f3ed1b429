import ServiceCore

extension PageTemplates {
    /// The sheet `requestAuthorization()` shows: Don't Allow, Select Accounts, or Cancel.
    static let consentSheet = """
        {{<layout}}{{$content}}
        <section class="card sheet" aria-labelledby="title">
        <div class="app-icon" aria-hidden="true">{{initial}}</div>
        <h1 id="title">{{t.consentHeading}}</h1>
        <p>{{t.consentText}}</p>
        <p class="fine">{{t.clientID}} <code>{{clientID}}</code></p>
        <div class="actions stacked">
        <a class="button primary" href="{{selectAccounts}}">{{t.selectAccounts}}</a>
        <form method="post" action="/finance/authorize">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        \(requestFields)
        <button type="submit" name="decision" value="deny">{{t.dontAllow}}</button>
        <button type="submit" name="decision" value="cancel" class="quiet">{{t.cancel}}</button>
        </form>
        </div>
        </section>
        {{/content}}{{/layout}}
        """

    /// An app that already has access asks again, and nothing proves it is that app (a public
    /// client): what it sees, and one tap to continue — never a code without it.
    static let consentConfirm = """
        {{<layout}}{{$content}}
        <section class="card sheet" aria-labelledby="title">
        <div class="app-icon" aria-hidden="true">{{initial}}</div>
        <h1 id="title">{{t.continueSharingHeading}}</h1>
        <p>{{t.continueSharingSees}}</p>
        {{#hasAccounts}}<ul class="shares">
        {{#accounts}}<li><span class="name">{{displayName}}</span> <span class="sub">{{institutionName}} · {{from}}</span></li>
        {{/accounts}}</ul>{{/hasAccounts}}
        {{^hasAccounts}}<p class="empty">{{t.noAccounts}}</p>{{/hasAccounts}}
        <p>{{t.continueSharingWarning}}</p>
        <p class="fine">{{t.clientID}} <code>{{clientID}}</code></p>
        <form method="post" action="/finance/authorize" class="actions stacked">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        \(requestFields)
        <button type="submit" name="decision" value="continue" class="primary">{{t.continue}}</button>
        <button type="submit" name="decision" value="cancel" class="quiet">{{t.cancel}}</button>
        </form>
        </section>
        {{/content}}{{/layout}}
        """

    /// The account picker behind Select Accounts: an account per row, each with the earliest date
    /// the client may see.
    static let accountPicker = """
        {{<layout}}{{$content}}
        <section class="card" aria-labelledby="title">
        <h1 id="title">{{t.shareAccountsHeading}}</h1>
        <p>{{t.shareAccountsText}}</p>
        <form method="post" action="/finance/authorize/accounts">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        \(requestFields)
        {{^accounts}}<p class="empty">{{t.noAccountsYet}}</p>{{/accounts}}
        {{#hasAccounts}}
        <fieldset>
        <legend>{{t.accounts}}</legend>
        <ul class="choices">
        {{#accounts}}
        <li class="choice">
        <input type="checkbox" id="account-{{id}}" name="share-{{id}}" value="on" data-date="from-{{id}}">
        <label for="account-{{id}}"><span class="name">{{displayName}}</span> <span class="sub">{{institutionName}} · {{kind}}</span></label>
        <span class="from">
        <label for="from-{{id}}">{{t.shareFrom}}</label>
        <input type="date" id="from-{{id}}" name="from-{{id}}" value="{{defaultFrom}}">
        </span>
        </li>
        {{/accounts}}
        </ul>
        </fieldset>
        {{/hasAccounts}}
        <div class="actions">
        <button type="submit" name="decision" value="share" class="primary">{{t.share}}</button>
        <button type="submit" name="decision" value="cancel" class="quiet">{{t.cancel}}</button>
        </div>
        </form>
        </section>
        {{/content}}{{/layout}}
        """
}
