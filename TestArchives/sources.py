#!/usr/bin/env python3
"""Writes TestArchives/sources: the order folders the archives are built from.

Images are valid PNGs filled with deterministic noise (so they do not compress), which makes
`basic` a realistic ~100 KB order for the benchmark. Everything here is deterministic.
"""
import json, os, random, shutil, struct, sys, zlib

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sources")


def png(path, width, height, seed):
    rng = random.Random(seed)
    rows = b"".join(b"\0" + bytes(rng.getrandbits(8) for _ in range(width * 3)) for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def write_text(path, text, encoding="utf-8"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(text.encode(encoding))


def pdf(path, title):
    body = f"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n% {title}\ntrailer<</Root 1 0 R>>\n%%EOF\n"
    write_text(path, body)


def base_order():
    return {
        "schemaVersion": 1,
        "orderTypeIdentifier": "order.com.example.shop",
        "orderIdentifier": "ORDER-123",
        "orderType": "ecommerce",
        "orderNumber": "123-456-789",
        "orderManagementURL": "https://shop.example.com/orders/ORDER-123",
        "createdAt": "2026-01-15T09:30:00Z",
        "updatedAt": "2026-01-15T09:30:00.125Z",
        "status": "open",
        "merchant": {
            "displayName": "Example Shop",
            "merchantIdentifier": "merchant.com.example.shop",
            "url": "https://shop.example.com",
            "logo": "logo.png",
        },
        "webServiceURL": "https://shop.example.com/wallet/",
        "authenticationToken": "8c4fbd8e3a9d4f2e9b7a1c2d3e4f5a6b",
        "lineItems": [
            {"title": "Espresso cups", "subtitle": "Set of 2", "quantity": 2, "image": "item.png",
             "price": {"amount": "24.50", "currency": "EUR"}, "sku": "CUP-2"}
        ],
        "payment": {"total": {"amount": "49.00", "currency": "EUR"}, "status": "paid"},
        "fulfillments": [
            {"fulfillmentType": "shipping", "fulfillmentIdentifier": "SHIP-1", "status": "onTheWay",
             "carrier": "DHL", "trackingNumber": "JD014600003828", "trackingURL": "https://track.example.com/JD014600003828",
             "estimatedDeliveryAt": "2026-01-17T18:00:00+01:00"}
        ],
    }


def full_order():
    order = base_order()
    order["orderIdentifier"] = "ORDER-FULL-1"
    order["orderManagementURL"] = "https://shop.example.com/orders/ORDER-FULL-1"
    order["merchant"].update({
        "address": {"addressLines": ["1 Market Street"], "locality": "Zurich", "postalCode": "8001", "countryCode": "CH"},
        "businessChatURL": "https://chat.example.com/shop", "contactURL": "https://shop.example.com/contact",
        "emailAddress": "help@shop.example.com", "phoneNumber": "+41 44 000 00 00",
    })
    order["customer"] = {"givenName": "Ada", "familyName": "Lovelace", "emailAddress": "ada@example.com"}
    order["barcode"] = {"format": "qr", "message": "ORDER-FULL-1", "messageEncoding": "iso-8859-1", "altText": "ORDER-FULL-1"}
    order["associatedApplications"] = [{"storeIdentifier": 1234567890, "launchURL": "exampleshop://orders/ORDER-FULL-1"}]
    order["associatedApplicationIdentifiers"] = ["ABCDE12345.com.example.shop"]
    order["changeNotifications"] = "enabled"
    order["statusDescription"] = "Partly shipped"
    order["lineItems"].append({"title": "Coffee beans", "quantity": 1.5, "price": {"amount": "12.00", "currency": "EUR"}, "gtin": "04012345678901"})
    order["payment"] = {
        "total": {"amount": "61.00", "currency": "EUR"},
        "status": "paid",
        "summaryItems": [{"label": "Subtotal", "value": {"amount": "55.00", "currency": "EUR"}},
                         {"label": "Shipping", "value": {"amount": "6.00", "currency": "EUR"}}],
        "transactions": [{"amount": {"amount": "61.00", "currency": "EUR"}, "createdAt": "2026-01-15T09:30:00Z",
                          "paymentMethod": {"displayName": "Visa ••••1234"}, "status": "completed",
                          "transactionType": "purchase", "receipt": "receipt.pdf"}],
        "applePayTransactionIdentifiers": ["A1B2C3"],
    }
    order["fulfillments"] = [
        {"fulfillmentType": "shipping", "fulfillmentIdentifier": "SHIP-1", "status": "delivered", "shippingType": "delivery",
         "carrier": "DHL", "trackingNumber": "JD014600003828", "trackingURL": "https://track.example.com/JD014600003828",
         "shippedAt": "2026-01-15T15:00:00Z", "deliveredAt": "2026-01-16T11:12:13.5Z",
         "estimatedDeliveryAt": "2026-01-16T12:00:00Z", "estimatedDeliveryWindowDuration": "P0Y0M0DT4H0M0S",
         "notes": "Leave at the door", "statusDescription": "Delivered",
         "recipient": {"givenName": "Ada", "familyName": "Lovelace",
                       "address": {"addressLines": ["2 Analytical Lane"], "locality": "London", "postalCode": "N1", "countryCode": "GB"}},
         "lineItems": [{"title": "Espresso cups", "quantity": 2, "image": "item.png"}]},
        {"fulfillmentType": "pickup", "fulfillmentIdentifier": "PICKUP-1", "displayName": "Example Shop Zurich",
         "status": "readyForPickup", "pickupAt": "2026-01-18T10:00:00+01:00", "pickupWindowDuration": "PT2H",
         "address": {"addressLines": ["1 Market Street"], "locality": "Zurich", "countryCode": "CH"},
         "location": {"latitude": 47.3769, "longitude": 8.5417, "altitude": 408},
         "barcode": {"format": "code128", "message": "PICKUP-1"},
         "lineItems": [{"title": "Coffee beans", "quantity": 1.5}]},
    ]
    order["orderProvider"] = {"displayName": "Example Platform", "url": "https://platform.example.com",
                              "trackingLogoNameDarkColorScheme": "provider-dark.png",
                              "trackingLogoNameLightColorScheme": "provider-light.png"}
    order["returnInfo"] = {"returnPolicyURL": "https://shop.example.com/returns", "displayCountdown": True,
                           "returnDeadline": "2026-02-15T23:59:59Z", "returnManagementURL": "https://shop.example.com/returns/ORDER-FULL-1",
                           "returnPolicyDescription": "30 days"}
    order["returns"] = [{"returnIdentifier": "RET-1", "status": "onTheWay", "returnNumber": "R-1", "carrier": "DHL",
                         "initiatedAt": "2026-01-20T09:00:00Z", "dropOffBy": "2026-01-27T18:00:00Z",
                         "returnLabel": "return-label.pdf", "returnManagementURL": "https://shop.example.com/returns/RET-1",
                         "lineItems": [{"title": "Espresso cups", "quantity": 1}]}]
    return order


def main():
    shutil.rmtree(root, ignore_errors=True)

    # basic: a typical order, order.json + two ~48 KB images (the benchmark's subject).
    write_json(f"{root}/basic/order.json", base_order())
    png(f"{root}/basic/logo.png", 128, 125, seed=1)
    png(f"{root}/basic/item.png", 128, 125, seed=2)

    # small: the same order with tiny images, the base of most variants.
    write_json(f"{root}/small/order.json", base_order())
    png(f"{root}/small/logo.png", 4, 4, seed=3)
    png(f"{root}/small/item.png", 4, 4, seed=4)

    # full: every object of the schema, both fulfillment kinds, attachments, @2x/@3x variants.
    write_json(f"{root}/full/order.json", full_order())
    png(f"{root}/full/logo.png", 4, 4, seed=5)
    png(f"{root}/full/logo@2x.png", 8, 8, seed=6)
    png(f"{root}/full/item@2x.png", 8, 8, seed=7)
    png(f"{root}/full/item@3x.png", 12, 12, seed=8)
    png(f"{root}/full/provider-dark.png", 4, 4, seed=9)
    png(f"{root}/full/provider-light.png", 4, 4, seed=10)
    pdf(f"{root}/full/receipt.pdf", "receipt")
    pdf(f"{root}/full/return-label.pdf", "return label")

    # localized: en (UTF-8) and de (UTF-16) strings, a localized image, a zh-Hans folder.
    localized = base_order()
    localized["orderIdentifier"] = "ORDER-L10N-1"
    localized["merchant"]["displayName"] = "MERCHANT_NAME"
    localized["statusDescription"] = "STATUS_SHIPPED"
    localized["lineItems"][0]["image"] = "banner.png"
    write_json(f"{root}/localized/order.json", localized)
    png(f"{root}/localized/logo.png", 4, 4, seed=11)
    strings = {
        "en": '/* English */\n"MERCHANT_NAME" = "Example Shop";\n"STATUS_SHIPPED" = "Your order is on its way";\n',
        "de": '// Deutsch\n"MERCHANT_NAME" = "Beispiel-Laden";\n"STATUS_SHIPPED" = "Ihre Bestellung ist unterwegs \\"bald\\"";\n',
        "zh-Hans": '"MERCHANT_NAME" = "示例商店";\n"STATUS_SHIPPED" = "您的订单正在路上";\n',
    }
    for seed, (language, text) in enumerate(strings.items(), start=20):
        encoding = "utf-16" if language == "de" else "utf-8"   # Python's utf-16 writes a BOM
        write_text(f"{root}/localized/{language}.lproj/order.strings", text, encoding)
        png(f"{root}/localized/{language}.lproj/banner.png", 4, 4, seed=seed)


if __name__ == "__main__":
    main()
