import Foundation
import OrderPackage

/// The order's style, light and dark (`prefers-color-scheme`), narrow first: inlined by
/// ``RenderedOrder/document()`` and served as a file by the service's pages (their
/// Content-Security-Policy allows no inline style).
public enum OrderStylesheet {
    /// The stylesheet's version, for its URL (`?v=`) and the pages' entity tags: the first 12 hex
    /// digits of its SHA-256.
    public static let version = String(SHA256Digest.hex(of: Data(text.utf8)).prefix(12))

    public static let text = """
        body.order-page{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1c1c1e;background:#f2f2f7}
        .order-page main{max-width:42rem;margin:0 auto;padding:1rem}
        .order{display:flex;flex-direction:column;gap:1rem}
        .order a{color:#0040dd}
        .order-head{display:flex;align-items:center;gap:.75rem}
        .order-head .logo{width:3rem;height:3rem;border-radius:.75rem;object-fit:cover;background:#fff}
        .order-head .merchant{margin:0;font-size:1.25rem;font-weight:600}
        .order .card{background:#fff;border-radius:1rem;padding:1rem 1.25rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
        .order h1{font-size:1.5rem;margin:0 0 .5rem}
        .order h2{font-size:1.15rem;margin:0 0 .5rem}
        .order h3{font-size:1rem;margin:1rem 0 .25rem}
        .order .sub{display:block;color:#5b5b60;font-size:.9rem}
        .order .badge{display:inline-block;padding:.1rem .6rem;border-radius:1rem;background:#e5e5ea;font-weight:600;font-size:.9rem}
        .order .badge.delivered,.order .badge.pickedUp,.order .badge.completed,.order .badge.readyForPickup{background:#d4f4dd;color:#0a5c24}
        .order .badge.issue,.order .badge.cancelled{background:#fde2e1;color:#8a1410}
        .order .fields{margin:.5rem 0;display:grid;grid-template-columns:minmax(0,auto) minmax(min-content,1fr);gap:.35rem 1rem}
        .order .fields dt{color:#5b5b60}
        .order .fields dd{margin:0;text-align:end;overflow-wrap:anywhere}
        .order .fields dd.id{overflow-wrap:normal;font-variant-numeric:tabular-nums}
        @media (max-width:22.5rem){.order .fields:not(.amounts){grid-template-columns:minmax(0,1fr);gap:0 1rem}\
        .order .fields:not(.amounts) dd{text-align:start;margin-bottom:.35rem}.order .fields dd.id{overflow-wrap:break-word}}
        .order .amounts .total{border-top:1px solid #d1d1d6;padding-top:.35rem;font-weight:700}
        .order .amounts dt.total{margin-inline-end:-1rem;padding-inline-end:1rem}
        .order address{font-style:normal;margin:.5rem 0}
        .order address span{display:block}
        .order .items{list-style:none;margin:.5rem 0;padding:0;display:grid;gap:.75rem}
        .order .items li{display:flex;align-items:center;gap:.75rem}
        .order .thumb{flex:none;width:3rem;height:3rem;border-radius:.5rem;object-fit:cover;background:#e5e5ea}
        .order .item{flex:1;min-width:0}
        .order .item-title{font-weight:600;overflow-wrap:anywhere}
        .order .price{font-variant-numeric:tabular-nums}
        .order .code{margin:.75rem 0;text-align:center}
        .order .code svg{background:#fff;max-width:100%}
        .order .code .qr{width:12rem;height:12rem}
        .order .code .linear{width:100%;max-width:20rem;height:5rem}
        .order .code figcaption{font-family:ui-monospace,monospace;overflow-wrap:anywhere}
        .order .provider{display:flex;align-items:center;gap:.5rem;color:#5b5b60}
        .order .provider img{width:1.5rem;height:1.5rem}
        .order .button{display:inline-block;padding:.5rem 1rem;border-radius:.6rem;background:#e5e5ea;color:#0040dd;\
        text-decoration:none;font-weight:600}
        .order .return{border-top:1px solid #d1d1d6;margin-top:.75rem}
        .wallet-action{margin:0 0 1rem;text-align:center}
        .add-to-wallet{display:inline-block;min-width:14rem;padding:.75rem 1.5rem;border-radius:.75rem;background:#000;\
        color:#fff;font-weight:600;text-decoration:none;border:1px solid #000}
        .add-to-wallet:focus-visible{outline:3px solid #0040dd;outline-offset:2px}
        @media (prefers-color-scheme: dark){
        body.order-page{color:#f2f2f7;background:#000}
        .order a,.order .button{color:#6fa8ff}
        .order .card{background:#1c1c1e;box-shadow:none}
        .order .sub,.order .fields dt,.order .provider{color:#aeaeb2}
        .order .badge,.order .button,.order .thumb{background:#2c2c2e}
        .order .badge.delivered,.order .badge.pickedUp,.order .badge.completed,.order .badge.readyForPickup{background:#0f3d1c;color:#b7f0c6}
        .order .badge.issue,.order .badge.cancelled{background:#4d1210;color:#ffd0cd}
        .order .amounts .total,.order .return{border-color:#3a3a3c}
        .add-to-wallet{border-color:#8e8e93}
        }
        """
}
