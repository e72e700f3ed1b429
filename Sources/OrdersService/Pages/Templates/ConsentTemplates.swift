extension PageTemplates {
    /// The sheet `requestAuthorization()` shows: Don't Allow, Select Accounts, or Cancel.
    static let consentSheet = """
        {{<layout}}{{$content}}
        <section class="card sheet" aria-labelledby="title">
        <div class="app-icon" aria-hidden="true">{{initial}}</div>
        <h1 id="title">“{{clientName}}” Would Like to Access Your Financial Data</h1>
        <p>If you allow it, {{clientName}} can see the accounts you choose, with their balances and transactions from the date you choose for each, and changes to them — until you stop sharing in Settings.</p>
        <p class="fine">Client ID: <code>{{clientID}}</code></p>
        <div class="actions stacked">
        <a class="button primary" href="{{selectAccounts}}">Select Accounts</a>
        <form method="post" action="/finance/authorize">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        \(requestFields)
        <button type="submit" name="decision" value="deny">Don’t Allow</button>
        <button type="submit" name="decision" value="cancel" class="quiet">Cancel</button>
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
        <h1 id="title">Continue Sharing with “{{clientName}}”?</h1>
        <p>{{clientName}} asks to connect again. It already sees:</p>
        {{#hasAccounts}}<ul class="shares">
        {{#accounts}}<li><span class="name">{{displayName}}</span> <span class="sub">{{institutionName}} · {{from}}</span></li>
        {{/accounts}}</ul>{{/hasAccounts}}
        {{^hasAccounts}}<p class="empty">No accounts.</p>{{/hasAccounts}}
        <p>Continue only if you just asked {{clientName}} to connect. Nothing changes what it may see; you can change that in Settings.</p>
        <p class="fine">Client ID: <code>{{clientID}}</code></p>
        <form method="post" action="/finance/authorize" class="actions stacked">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        \(requestFields)
        <button type="submit" name="decision" value="continue" class="primary">Continue</button>
        <button type="submit" name="decision" value="cancel" class="quiet">Cancel</button>
        </form>
        </section>
        {{/content}}{{/layout}}
        """

    /// The account picker behind Select Accounts: an account per row, each with the earliest date
    /// the client may see.
    static let accountPicker = """
        {{<layout}}{{$content}}
        <section class="card" aria-labelledby="title">
        <h1 id="title">Share Accounts with “{{clientName}}”</h1>
        <p>Choose the accounts to share and, for each, the earliest date {{clientName}} may see. Transactions and balances from before that date stay private; leave the date empty to share the whole history.</p>
        <form method="post" action="/finance/authorize/accounts">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        \(requestFields)
        {{^accounts}}<p class="empty">There are no accounts yet. Sharing now shares none; accounts can be shared later in Settings.</p>{{/accounts}}
        {{#hasAccounts}}
        <fieldset>
        <legend>Accounts</legend>
        <ul class="choices">
        {{#accounts}}
        <li class="choice">
        <input type="checkbox" id="account-{{id}}" name="share-{{id}}" value="on" data-date="from-{{id}}">
        <label for="account-{{id}}"><span class="name">{{displayName}}</span> <span class="sub">{{institutionName}} · {{kind}}</span></label>
        <span class="from">
        <label for="from-{{id}}">Share from</label>
        <input type="date" id="from-{{id}}" name="from-{{id}}" value="{{defaultFrom}}">
        </span>
        </li>
        {{/accounts}}
        </ul>
        </fieldset>
        {{/hasAccounts}}
        <div class="actions">
        <button type="submit" name="decision" value="share" class="primary">Share</button>
        <button type="submit" name="decision" value="cancel" class="quiet">Cancel</button>
        </div>
        </form>
        </section>
        {{/content}}{{/layout}}
        """
}
