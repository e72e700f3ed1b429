import Foundation

/// The merchant API's OpenAPI 3.1 document, served at `/api/v1/openapi.json`. The repository
/// keeps the same text as `docs/openapi.json` (a test holds them equal).
enum MerchantOpenAPI {
    static let document = Data(text.utf8)

    static let text = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "wallet-orders merchant API",
            "version": "1.0.0",
            "description": "Upload signed Wallet order archives and ask about stored orders. Every request but this document needs `Authorization: Bearer <API key>` (`orders keys create`); a key may use only its order types. Errors are `{\"error\": {\"code\", \"message\", \"path\"}}` with the codes of docs/error-codes.md."
          },
          "servers": [{ "url": "/" }],
          "security": [{ "apiKey": [] }],
          "paths": {
            "/api/v1/orders": {
              "put": {
                "operationId": "saveOrder",
                "summary": "Verify and store a signed order archive (FinanceKit's saveOrder).",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/vnd.apple.finance.order": { "schema": { "type": "string", "format": "binary" } },
                    "application/octet-stream": { "schema": { "type": "string", "format": "binary" } }
                  }
                },
                "responses": {
                  "201": { "description": "added: a new order", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SaveOutcome" } } } },
                  "200": { "description": "added: a newer version (registered devices are pushed) or the same version again", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SaveOutcome" } } } },
                  "409": { "description": "newerExisting (a SaveOutcome), or store.conflictingVersion / store.signerChanged (an Error)", "content": { "application/json": { "schema": { "oneOf": [{ "$ref": "#/components/schemas/SaveOutcome" }, { "$ref": "#/components/schemas/Error" }] } } } },
                  "422": { "description": "store.invalidArchive, with the verification report", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "413": { "$ref": "#/components/responses/Error" },
                  "415": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              },
              "get": {
                "operationId": "listOrders",
                "summary": "The key's stored orders, most recently updated first.",
                "parameters": [
                  { "name": "type", "in": "query", "schema": { "type": "string" }, "description": "Only this order type." },
                  { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 100 } },
                  { "name": "cursor", "in": "query", "schema": { "type": "string", "pattern": "^(o[0-9]{1,12})?$" }, "description": "The nextCursor of the previous page (opaque: pass it back as it came). Empty or absent: the first page." }
                ],
                "responses": {
                  "200": { "description": "a page", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/OrderPage" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}": {
              "parameters": [
                { "name": "orderTypeIdentifier", "in": "path", "required": true, "schema": { "$ref": "#/components/schemas/Identifier" } },
                { "name": "orderIdentifier", "in": "path", "required": true, "schema": { "$ref": "#/components/schemas/Identifier" } }
              ],
              "get": {
                "operationId": "containsOrder",
                "summary": "FinanceKit's containsOrder, with the stored facts.",
                "parameters": [
                  { "name": "updatedDate", "in": "query", "schema": { "type": "string", "format": "date-time" }, "description": "Compared exactly with the stored updatedAt." }
                ],
                "responses": {
                  "200": { "description": "exists, newerExists or olderExists", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/OrderAnswer" } } } },
                  "404": { "description": "notFound (also for order types the key may not use)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/OrderAnswer" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              },
              "delete": {
                "operationId": "removeOrder",
                "summary": "Remove the order, its history and its registrations.",
                "responses": {
                  "200": { "description": "removed", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RemoveAnswer" } } } },
                  "404": { "description": "not stored (or not the key's order type)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RemoveAnswer" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/api/v1/openapi.json": {
              "get": {
                "operationId": "openAPI",
                "summary": "This document.",
                "security": [],
                "responses": { "200": { "description": "OpenAPI 3.1", "content": { "application/json": {} } } }
              }
            }
          },
          "components": {
            "securitySchemes": {
              "apiKey": { "type": "http", "scheme": "bearer", "description": "A key from `orders keys create` (wok_…)." }
            },
            "responses": {
              "Error": { "description": "an error", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
            },
            "schemas": {
              "Identifier": {
                "type": "string", "minLength": 1, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]+$",
                "description": "Any non-empty string without control characters (C0, DEL, C1), percent-encoded in the path."
              },
              "Issue": {
                "type": "object",
                "required": ["code", "message", "path"],
                "properties": {
                  "code": { "type": "string", "description": "Stable, dotted (docs/error-codes.md)." },
                  "message": { "type": "string" },
                  "path": { "type": ["string", "null"], "description": "A JSON path or archive entry." }
                }
              },
              "Error": {
                "type": "object",
                "required": ["error", "report"],
                "properties": {
                  "error": { "$ref": "#/components/schemas/Issue" },
                  "report": { "type": ["object", "null"], "description": "For store.invalidArchive: the report, as `orders verify --json` prints it." }
                }
              },
              "SaveOutcome": {
                "type": "object",
                "required": ["file", "result", "code", "message", "errors", "orderTypeIdentifier", "orderIdentifier", "updatedAt"],
                "properties": {
                  "file": { "type": "string" },
                  "result": { "type": "string", "enum": ["added", "cancelled", "newerExisting"] },
                  "code": { "type": ["string", "null"] },
                  "message": { "type": ["string", "null"] },
                  "errors": { "type": "array", "items": { "$ref": "#/components/schemas/Issue" } },
                  "orderTypeIdentifier": { "type": ["string", "null"] },
                  "orderIdentifier": { "type": ["string", "null"] },
                  "updatedAt": { "type": ["string", "null"], "format": "date-time" }
                }
              },
              "StoredOrder": {
                "type": "object",
                "properties": {
                  "orderTypeIdentifier": { "type": "string" },
                  "orderIdentifier": { "type": "string" },
                  "updatedAt": { "type": "string", "format": "date-time" },
                  "createdAt": { "type": "string", "format": "date-time" },
                  "status": { "type": "string" },
                  "merchantIdentifier": { "type": "string" },
                  "merchant": { "type": "string" },
                  "teamIdentifier": { "type": "string" },
                  "archiveSHA256": { "type": "string" },
                  "archiveSize": { "type": "integer" },
                  "addedAt": { "type": "string", "format": "date-time" },
                  "replacedAt": { "type": ["string", "null"], "format": "date-time" }
                }
              },
              "OrderAnswer": {
                "type": "object",
                "required": ["orderTypeIdentifier", "orderIdentifier", "result", "order"],
                "properties": {
                  "orderTypeIdentifier": { "type": "string" },
                  "orderIdentifier": { "type": "string" },
                  "result": { "type": "string", "enum": ["exists", "newerExists", "olderExists", "notFound"] },
                  "order": { "oneOf": [{ "$ref": "#/components/schemas/StoredOrder" }, { "type": "null" }] }
                }
              },
              "OrderPage": {
                "type": "object",
                "required": ["orders", "nextCursor"],
                "properties": {
                  "orders": { "type": "array", "items": { "$ref": "#/components/schemas/StoredOrder" } },
                  "nextCursor": { "type": ["string", "null"] }
                }
              },
              "RemoveAnswer": {
                "type": "object",
                "required": ["orderTypeIdentifier", "orderIdentifier", "result", "removed"],
                "properties": {
                  "orderTypeIdentifier": { "type": "string" },
                  "orderIdentifier": { "type": "string" },
                  "result": { "type": "null" },
                  "removed": { "type": "boolean" }
                }
              }
            }
          }
        }
        """#
}
