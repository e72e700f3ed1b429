import ServiceCore

extension PageTemplates {
    /// The console's list of stored orders: a search form (GET: nothing changes) and a page.
    static let consoleOrders = """
        {{<layout}}{{$content}}
        <h1>Orders</h1>
        <form method="get" action="/console/orders" class="card row" role="search">
        <label for="q">Search</label>
        <input type="search" id="q" name="q" value="{{search}}" maxlength="200" placeholder="Order, merchant">
        <label for="type">Order type</label>
        <input type="text" id="type" name="type" value="{{type}}" maxlength="200">
        <label for="status">Status</label>
        <select id="status" name="status">{{#statuses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/statuses}}</select>
        <button type="submit">Search</button>
        </form>
        <section class="card" aria-labelledby="results">
        <h2 id="results">{{summary}}</h2>
        {{^empty(orders)}}
        <div class="scroll" tabindex="0" role="group" aria-label="Orders"><table>
        <thead><tr><th scope="col">Order</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Merchant</th><th scope="col">Updated</th></tr></thead>
        <tbody>
        {{#orders}}<tr><td><a href="{{href}}">{{identifier}}</a></td><td>{{type}}</td><td>{{status}}</td><td>{{merchant}}</td><td>{{updatedAt}}</td></tr>{{/orders}}
        </tbody>
        </table></div>
        {{/empty(orders)}}
        <nav aria-label="Pages">{{#previous}}<a href="{{previous}}">Previous</a> {{/previous}}{{#next}}<a href="{{next}}">Next</a>{{/next}}</nav>
        </section>
        {{/content}}{{/layout}}
        """

    /// One stored order: as Wallet shows it, and every version the store keeps.
    static let consoleOrder = """
        {{<layout}}{{$head}}<link rel="stylesheet" href="/orders/static/order.css?v={{orderAssetVersion}}">{{/head}}{{$content}}
        <p><a href="/console/orders">All orders</a></p>
        <h1>{{identifier}} <span class="sub">{{type}}</span></h1>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <section class="card" aria-labelledby="change">
        <h2 id="change">Change the Order</h2>
        {{#canChange}}<form method="post" action="{{changeAction}}" class="row">
        <input type="hidden" name="csrf_token" value="{{formToken}}"><input type="hidden" name="step" value="preview">
        <label for="status">Status</label>
        <select id="status" name="status">{{#statuses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/statuses}}</select>
        {{#fulfillments}}<label for="{{field}}">{{label}}</label>
        <select id="{{field}}" name="{{field}}">{{#choices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/choices}}</select>
        {{/fulfillments}}<button type="submit">Preview Changes</button>
        </form>{{/canChange}}
        {{^canChange}}<p>No signing identity holds this order type's key; add one with <code>orders signing add</code> to change the order here.</p>{{/canChange}}
        </section>
        <section class="card" aria-labelledby="versions">
        <h2 id="versions">Versions</h2>
        <div class="scroll" tabindex="0" role="group" aria-label="Versions"><table>
        <thead><tr><th scope="col">updatedAt</th><th scope="col">Stored</th><th scope="col">Uploaded by</th>\
        <th scope="col">Status</th><th scope="col">SHA-256</th><th scope="col">Size</th></tr></thead>
        <tbody>
        {{#versions}}<tr><td>{{updatedAt}}{{#current}} (current){{/current}}</td><td>{{addedAt}}</td><td>{{uploadedBy}}</td>\
        <td>{{status}}</td><td><code class="digest">{{digest}}</code></td><td>{{size}}</td></tr>{{/versions}}
        </tbody>
        </table></div>
        {{#versionsNote}}<p class="sub">{{versionsNote}}</p>{{/versionsNote}}
        <form method="get" action="{{diffAction}}" class="row">
        <label for="from">Compare</label>
        <select id="from" name="from">{{#versions}}<option value="{{digest}}"{{#previous}} selected{{/previous}}>{{updatedAt}}</option>{{/versions}}</select>
        <label for="to">with</label>
        <select id="to" name="to">{{#versions}}<option value="{{digest}}">{{updatedAt}}</option>{{/versions}}</select>
        <button type="submit">Show Changes</button>
        </form>
        </section>
        {{^empty(trackingEvents)}}<section class="card" aria-labelledby="tracking-events">
        <h2 id="tracking-events">Tracking Events</h2>
        <div class="scroll" tabindex="0" role="group" aria-label="Tracking events"><table><thead><tr>\
        <th scope="col">Received</th><th scope="col">Provider</th><th scope="col">Event</th><th scope="col">Parcel</th>\
        <th scope="col">Occurred</th><th scope="col">Outcome</th></tr></thead><tbody>
        {{#trackingEvents}}<tr><td>{{receivedAt}}</td><td>{{provider}}</td><td><code>{{eventID}}</code></td>\
        <td><code>{{parcel}}</code></td><td>{{occurredAt}}</td><td>{{outcome}}</td></tr>{{/trackingEvents}}
        </tbody></table></div>
        </section>{{/empty(trackingEvents)}}
        <section class="card" aria-labelledby="devices">
        <h2 id="devices">Registered Devices</h2>
        <p>{{devicesSummary}}</p>
        {{^empty(devices)}}<div class="scroll" tabindex="0" role="group" aria-label="Devices"><table><thead><tr><th scope="col">Device</th><th scope="col">Push token</th>\
        <th scope="col">Registered</th><th scope="col">Last registered</th></tr></thead><tbody>
        {{#devices}}<tr><td><code>{{device}}</code></td><td><code>{{token}}</code></td><td>{{registeredAt}}</td>\
        <td>{{updatedAt}}</td></tr>{{/devices}}
        </tbody></table></div>{{/empty(devices)}}
        </section>
        <div class="order-page">{{{orderHTML}}}</div>
        {{/content}}{{/layout}}
        """

    /// The merchant API's keys: create (the key shown once), revoke.
    static let consoleKeys = """
        {{<layout}}{{$content}}
        <h1>API Keys</h1>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#created}}<section class="card" aria-labelledby="created"><h2 id="created">Your New Key</h2>
        <p>Copy it now: it is not shown again.</p><p><code>{{created}}</code></p></section>{{/created}}
        <form method="post" action="/console/keys/create" class="card">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        <h2>Create a Key</h2>
        <label for="name">Name</label> <input type="text" id="name" name="name" maxlength="200" required>
        <label for="types">Order types</label> <input type="text" id="types" name="types" maxlength="4000" required>
        <button type="submit">Create Key</button>
        </form>
        <section class="card" aria-labelledby="all-keys">
        <h2 id="all-keys">Keys</h2>
        {{^empty(keys)}}<div class="scroll" tabindex="0" role="group" aria-label="Keys"><table><thead><tr><th scope="col">Name</th><th scope="col">Identifier</th><th scope="col">Order types</th>\
        <th scope="col">Created</th><th scope="col">State</th></tr></thead><tbody>
        {{#keys}}<tr><td>{{name}}</td><td><code>{{identifier}}</code></td><td>{{types}}</td><td>{{createdAt}}</td><td>\
        {{#revokedAt}}revoked {{revokedAt}}{{/revokedAt}}{{^revokedAt}}<form method="post" action="/console/keys/revoke" class="inline">\
        <input type="hidden" name="csrf_token" value="{{formToken}}"><input type="hidden" name="key" value="{{identifier}}">\
        <button type="submit" class="danger" aria-label="Revoke {{name}}">Revoke</button></form>{{/revokedAt}}</td></tr>{{/keys}}
        </tbody></table></div>{{/empty(keys)}}
        {{^keys}}<p class="empty">No keys yet.</p>{{/keys}}
        </section>
        <section class="card" aria-labelledby="identities">
        <h2 id="identities">Signing Identities</h2>
        {{^empty(identities)}}<div class="scroll" tabindex="0" role="group" aria-label="Signing identities"><table><thead><tr>\
        <th scope="col">Order type</th><th scope="col">Team</th><th scope="col">Key</th><th scope="col">Certificates</th></tr></thead><tbody>
        {{#identities}}<tr><td>{{orderType}}</td><td>{{team}}</td><td><code>{{key}}</code></td><td><ul class="plain">\
        {{#certificates}}<li>{{role}}: expires {{notAfter}}, <strong{{#isDue}} class="due"{{/isDue}}>{{daysLeft}}</strong></li>{{/certificates}}\
        </ul></td></tr>{{/identities}}
        </tbody></table></div>{{/empty(identities)}}
        {{^identities}}<p class="empty">No signing identities (orders signing add).</p>{{/identities}}
        </section>
        {{/content}}{{/layout}}
        """

    /// What changed in order.json between two stored versions.
    static let consoleDiff = """
        {{<layout}}{{$content}}
        <p><a href="{{back}}">Back to {{identifier}}</a></p>
        <h1>Changes in {{identifier}}</h1>
        <p class="sub">From <code>{{from}}…</code> to <code>{{to}}…</code></p>
        <section class="card" aria-labelledby="changes">
        <h2 id="changes">{{^empty(changes)}}Fields{{/empty(changes)}}{{#empty(changes)}}No field changed{{/empty(changes)}}</h2>
        {{^empty(changes)}}<div class="scroll" tabindex="0" role="group" aria-label="Fields"><table><thead><tr><th scope="col">Field</th><th scope="col">Change</th><th scope="col">Before</th>\
        <th scope="col">After</th></tr></thead><tbody>
        {{#changes}}<tr class="{{kind}}"><td><code>{{path}}</code></td><td>{{kind}}</td><td><code>{{before}}</code></td>\
        <td><code>{{after}}</code></td></tr>{{/changes}}
        </tbody></table></div>{{/empty(changes)}}
        </section>
        {{/content}}{{/layout}}
        """

    /// A change of the order previewed: the fields it changes, and the form that signs it.
    static let consoleChange = """
        {{<layout}}{{$content}}
        <p><a href="{{back}}">Back to {{identifier}}</a></p>
        <h1>Change {{identifier}}</h1>
        <section class="card" aria-labelledby="changes">
        <h2 id="changes">{{^empty(changes)}}What Will Change{{/empty(changes)}}{{#empty(changes)}}Nothing to Change{{/empty(changes)}}</h2>
        {{#empty(changes)}}<p class="empty">The order already says this.</p>{{/empty(changes)}}
        {{^empty(changes)}}<div class="scroll" tabindex="0" role="group" aria-label="Fields"><table><thead><tr><th scope="col">Field</th><th scope="col">Change</th><th scope="col">Before</th>\
        <th scope="col">After</th></tr></thead><tbody>
        {{#changes}}<tr class="{{kind}}"><td><code>{{path}}</code></td><td>{{kind}}</td><td><code>{{before}}</code></td>\
        <td><code>{{after}}</code></td></tr>{{/changes}}
        </tbody></table></div>
        <p class="sub">updatedAt is set when the version is signed, later than the stored one's.</p>{{/empty(changes)}}
        </section>
        {{^empty(changes)}}<form method="post" action="{{action}}" class="card">
        <input type="hidden" name="csrf_token" value="{{formToken}}"><input type="hidden" name="step" value="sign">
        {{#choices}}<input type="hidden" name="{{name}}" value="{{value}}">{{/choices}}<input type="hidden" name="basis" value="{{basis}}">
        <p>A new version is signed with the order type's key, stored, and pushed to the registered devices.</p>
        <button type="submit" class="primary">Sign and Save</button>
        </form>{{/empty(changes)}}
        {{/content}}{{/layout}}
        """

    /// The upload form and, after a post, the archive's report: each problem beside where it is.
    static let consoleUpload = """
        {{<layout}}{{$content}}
        <h1>Verify an Archive</h1>
        {{#verdict}}<section class="card" aria-labelledby="verdict">
        <h2 id="verdict">{{#fileName}}<code>{{fileName}}</code>: {{/fileName}}{{verdict}}</h2>
        {{#orderLink}}<p><a href="{{orderLink}}">Open the stored order</a></p>{{/orderLink}}
        {{^empty(errors)}}<div class="scroll" tabindex="0" role="group" aria-label="Errors"><table class="report"><caption>Errors</caption><thead><tr><th scope="col">Where</th>\
        <th scope="col">Problem</th><th scope="col">Code</th></tr></thead><tbody>
        {{#errors}}<tr class="error"><td><code>{{location}}</code></td><td>{{message}}</td><td><code>{{code}}</code></td></tr>{{/errors}}
        </tbody></table></div>{{/empty(errors)}}
        {{^empty(warnings)}}<div class="scroll" tabindex="0" role="group" aria-label="Warnings"><table class="report"><caption>Warnings</caption><thead><tr><th scope="col">Where</th>\
        <th scope="col">Problem</th><th scope="col">Code</th></tr></thead><tbody>
        {{#warnings}}<tr><td><code>{{location}}</code></td><td>{{message}}</td><td><code>{{code}}</code></td></tr>{{/warnings}}
        </tbody></table></div>{{/empty(warnings)}}
        </section>{{/verdict}}
        <form method="post" action="/console/upload" enctype="multipart/form-data" class="card">
        <input type="hidden" name="csrf_token" value="{{formToken}}">
        <label for="archive">Signed order archive (.order, at most {{maximumSize}})</label>
        <input type="file" id="archive" name="archive" accept=".order,application/vnd.apple.finance.order" required>
        <p class="check"><input type="checkbox" id="store" name="store" value="1"> <label for="store">Store it when it is valid</label></p>
        <button type="submit" class="primary">Verify</button>
        </form>
        {{/content}}{{/layout}}
        """

    /// The push outbox: waiting pushes, and those that failed for good with APNs' reason.
    static let consoleOutbox = """
        {{<layout}}{{$content}}
        <h1>Push Outbox</h1>
        <section class="card" aria-labelledby="waiting">
        <h2 id="waiting">{{waitingSummary}}</h2>
        {{^empty(waiting)}}<div class="scroll" tabindex="0" role="group" aria-label="Waiting pushes"><table><thead><tr><th scope="col">Order</th><th scope="col">Device</th><th scope="col">Push token</th>\
        <th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Enqueued</th><th scope="col">Next attempt</th>\
        <th scope="col">Last error</th></tr></thead><tbody>
        {{#waiting}}<tr><td><a href="{{href}}">{{order}}</a></td><td><code>{{device}}</code></td><td><code>{{token}}</code></td>\
        <td>{{state}}</td><td>{{attempts}}</td><td>{{enqueuedAt}}</td><td>{{nextAttemptAt}}</td><td>{{lastError}}</td></tr>{{/waiting}}
        </tbody></table></div>{{/empty(waiting)}}
        </section>
        <section class="card" aria-labelledby="failed">
        <h2 id="failed">Failed</h2>
        {{#empty(failed)}}<p class="empty">No push has failed for good.</p>{{/empty(failed)}}
        {{^empty(failed)}}<div class="scroll" tabindex="0" role="group" aria-label="Failed pushes"><table><thead><tr><th scope="col">Order</th><th scope="col">Device</th><th scope="col">Push token</th>\
        <th scope="col">Attempts</th><th scope="col">Failed</th><th scope="col">Reason</th></tr></thead><tbody>
        {{#failed}}<tr><td><a href="{{href}}">{{order}}</a></td><td><code>{{device}}</code></td><td><code>{{token}}</code></td>\
        <td>{{attempts}}</td><td>{{failedAt}}</td><td>{{reason}}</td></tr>{{/failed}}
        </tbody></table></div>{{/empty(failed)}}
        </section>
        {{/content}}{{/layout}}
        """

    static let consoleTracking = """
        {{<layout}}{{$content}}
        <h1>Tracking</h1>
        <section class="card" aria-labelledby="endpoints">
        <h2 id="endpoints">Webhooks</h2>
        {{#empty(endpoints)}}<p class="empty">No provider's webhook is configured (<code>orders tracking add</code>).</p>{{/empty(endpoints)}}
        {{^empty(endpoints)}}<div class="scroll" tabindex="0" role="group" aria-label="Webhooks"><table><thead><tr><th scope="col">Provider</th>\
        <th scope="col">Path</th><th scope="col">Order types</th><th scope="col">Secrets</th><th scope="col">Added</th></tr></thead><tbody>
        {{#endpoints}}<tr><td>{{provider}}</td><td><code>{{path}}</code></td><td>{{orderTypes}}</td><td>{{secrets}}</td>\
        <td>{{createdAt}}</td></tr>{{/endpoints}}
        </tbody></table></div>{{/empty(endpoints)}}
        </section>
        <section class="card" aria-labelledby="unmatched">
        <h2 id="unmatched">Waiting for an order</h2>
        {{#empty(unmatched)}}<p class="empty">Every event received names a parcel of a stored order.</p>{{/empty(unmatched)}}
        {{^empty(unmatched)}}<p class="sub">Applied once an order naming the parcel is saved; kept 14 days.</p>
        <div class="scroll" tabindex="0" role="group" aria-label="Events waiting for an order"><table><thead><tr>\
        <th scope="col">Received</th><th scope="col">Provider</th><th scope="col">Event</th><th scope="col">Parcel</th>\
        <th scope="col">Occurred</th></tr></thead><tbody>
        {{#unmatched}}<tr><td>{{receivedAt}}</td><td>{{provider}}</td><td><code>{{eventID}}</code></td><td><code>{{parcel}}</code></td>\
        <td>{{occurredAt}}</td></tr>{{/unmatched}}
        </tbody></table></div>{{/empty(unmatched)}}
        </section>
        <section class="card" aria-labelledby="recent">
        <h2 id="recent">Latest events</h2>
        {{#empty(recent)}}<p class="empty">No tracking event has been received.</p>{{/empty(recent)}}
        {{^empty(recent)}}<div class="scroll" tabindex="0" role="group" aria-label="Latest events"><table><thead><tr>\
        <th scope="col">Received</th><th scope="col">Provider</th><th scope="col">Event</th><th scope="col">Parcel</th>\
        <th scope="col">Occurred</th><th scope="col">Outcome</th><th scope="col">Versions</th></tr></thead><tbody>
        {{#recent}}<tr><td>{{receivedAt}}</td><td>{{provider}}</td><td><code>{{eventID}}</code></td><td><code>{{parcel}}</code></td>\
        <td>{{occurredAt}}</td><td>{{outcome}}</td><td>{{versions}}</td></tr>{{/recent}}
        </tbody></table></div>{{/empty(recent)}}
        </section>
        {{/content}}{{/layout}}
        """
}
