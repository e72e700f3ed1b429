import ServiceCore

extension PageTemplates {
    static let signIn = """
        {{<layout}}{{$content}}
        <section class="card narrow" aria-labelledby="title">
        <h1 id="title">{{t.signIn}}</h1>
        <p class="lead">{{lead}}</p>
        {{#error}}<p class="alert" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/finance/sign-in">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        <input type="hidden" name="next" value="{{next}}">
        <label for="password">{{t.password}}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
        <button type="submit" class="primary wide">{{t.signIn}}</button>
        </form>
        </section>
        {{/content}}{{/layout}}
        """
}
