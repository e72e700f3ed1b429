import ServiceCore

extension PageTemplates {
    /// FinanceKitUI's TransactionPicker as a page: one GET form — the search, the suggested
    /// tokens and the checked rows travel together, so a search keeps what was checked, with or
    /// without JavaScript — and Continue to a review, where Share is a POST.
    static let transactionPicker = """
        {{<layout}}{{$content}}
        <section class="card" aria-labelledby="title">
        <h1 id="title">{{t.chooseTransactionsHeading}}</h1>
        <p>{{t.chooseTransactionsText}}</p>
        <form method="get" action="/finance/pick" id="picker">
        \(requestFields)
        <div role="search">
        <label for="q">{{t.search}}</label>
        <div class="searchbar">
        <input type="search" id="q" name="q" value="{{query}}" placeholder="{{t.searchPlaceholder}}">
        <button type="submit">{{t.search}}</button>
        </div>
        </div>
        {{#tokenGroups}}
        <fieldset class="tokens">
        <legend>{{legend}}</legend>
        {{#tokens}}
        <span class="token"><input type="checkbox" id="token-{{index}}" name="{{field}}" value="{{value}}" {{#active}}checked{{/active}} data-submit><label for="token-{{index}}">{{label}}</label></span>
        {{/tokens}}
        </fieldset>
        {{/tokenGroups}}
        <p class="count" aria-live="polite"><span data-count>{{selectedCount}}</span> {{t.selected}}</p>
        {{^transactions}}<p class="empty">{{t.noTransactionsMatch}}</p>{{/transactions}}
        <fieldset>
        <legend class="visually-hidden">{{t.transactions}}</legend>
        <ul class="transactions">
        {{#transactions}}
        <li>
        <input type="checkbox" id="tx-{{id}}" name="selected" value="{{id}}" {{#checked}}checked{{/checked}}>
        <label for="tx-{{id}}">
        <span class="title">{{title}}</span>
        <span class="amount {{direction}}">{{amount}}</span>
        <span class="sub">{{date}} · {{accountName}} · {{status}}{{#detail}} · {{detail}}{{/detail}}</span>
        </label>
        </li>
        {{/transactions}}
        </ul>
        </fieldset>
        {{#hiddenSelected}}<input type="hidden" name="selected" value="{{.}}">{{/hiddenSelected}}
        {{#more}}<p><button type="submit" name="limit" value="{{nextLimit}}" class="quiet">{{t.showMore}}</button></p>{{/more}}
        <div class="actions">
        <button type="submit" formaction="/finance/pick/review" class="primary">{{t.continue}}</button>
        </div>
        </form>
        <form method="post" action="/finance/pick" class="cancel">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        \(requestFields)
        <button type="submit" name="decision" value="cancel" class="quiet">{{t.cancel}}</button>
        </form>
        </section>
        {{/content}}{{/layout}}
        """

    /// What will be shared, once more, before it is: Share (a POST with the page's token), Back,
    /// Cancel.
    static let pickReview = """
        {{<layout}}{{$content}}
        <section class="card" aria-labelledby="title">
        <h1 id="title">{{heading}}</h1>
        <ul class="transactions review">
        {{#transactions}}
        <li><span class="title">{{title}}</span> <span class="amount {{direction}}">{{amount}}</span> <span class="sub">{{date}} · {{accountName}} · {{status}}</span></li>
        {{/transactions}}
        </ul>
        <form method="post" action="/finance/pick">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        \(requestFields)
        {{#selected}}<input type="hidden" name="selected" value="{{.}}">{{/selected}}
        <div class="actions">
        <button type="submit" name="decision" value="share" class="primary">{{t.share}}</button>
        <a class="button" href="{{back}}">{{t.back}}</a>
        <button type="submit" name="decision" value="cancel" class="quiet">{{t.cancel}}</button>
        </div>
        </form>
        </section>
        {{/content}}{{/layout}}
        """
}
