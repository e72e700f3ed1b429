extension PageTemplates {
    static let signIn = """
        {{<layout}}{{$content}}
        <section class="card narrow" aria-labelledby="title">
        <h1 id="title">Sign In</h1>
        <p class="lead">Sign in with the owner’s password to {{purpose}}.</p>
        {{#error}}<p class="alert" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/finance/sign-in">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        <input type="hidden" name="next" value="{{next}}">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
        <button type="submit" class="primary wide">Sign In</button>
        </form>
        </section>
        {{/content}}{{/layout}}
        """
}
