import Foundation

/// The HTTP API's OpenAPI 3.1 document — the merchant API and the financial-data API — served at
/// `/api/v1/openapi.json`. The repository
/// keeps the same text as `docs/openapi.json` (a test holds them equal).
enum MerchantOpenAPI {
    static let document = Data(text.utf8)

    static let text = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "wallet-orders HTTP API: merchant API and financial data",
            "version": "1.0.0",
            "description": "The merchant API (`/api/v1`): upload signed Wallet order archives and ask about stored orders with `Authorization: Bearer <API key>` (`orders keys create`); a key may use only its order types. The financial-data API (`/finance/v1`, docs/finance-web.md): what the data's owner shared with a client, with `Authorization: Bearer <access token>` from `/finance/token`, and its background-delivery endpoints (docs/background-delivery.md). Errors are `{\"error\": {\"code\", \"message\", \"path\"}}` with the codes of docs/error-codes.md; the token endpoint and picked transactions answer RFC 6749's `{\"error\", \"error_description\"}`."
          },
          "servers": [{"url": "/"}],
          "security": [{"apiKey": []}],
          "paths": {
            "/api/v1/orders": {
              "put": {
                "operationId": "saveOrder",
                "summary": "Verify and store a signed order archive (FinanceKit's saveOrder).",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/vnd.apple.finance.order": { "schema": {"type": "string", "format": "binary"} },
                    "application/octet-stream": { "schema": {"type": "string", "format": "binary"} }
                  }
                },
                "responses": {
                  "201": {
                    "description": "added: a new order",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/SaveOutcome"}} }
                  },
                  "200": {
                    "description": "added: a newer version (registered devices are pushed) or the same version again",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/SaveOutcome"}} }
                  },
                  "409": {
                    "description": "newerExisting (a SaveOutcome), or store.conflictingVersion / store.signerChanged (an Error)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "oneOf": [{"$ref": "#/components/schemas/SaveOutcome"}, {"$ref": "#/components/schemas/Error"}]
                        }
                      }
                    }
                  },
                  "422": {
                    "description": "store.invalidArchive, with the verification report",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/Error"}} }
                  },
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
                  {
                    "name": "type",
                    "in": "query",
                    "schema": { "type": "string" },
                    "description": "Only this order type."
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 100 }
                  },
                  {
                    "name": "cursor",
                    "in": "query",
                    "schema": { "type": "string", "pattern": "^(o[0-9]{1,12})?$" },
                    "description": "The nextCursor of the previous page (opaque: pass it back as it came). Empty or absent: the first page."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "a page",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OrderPage"}} }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}": {
              "parameters": [
                {
                  "name": "orderTypeIdentifier",
                  "in": "path",
                  "required": true,
                  "schema": { "$ref": "#/components/schemas/Identifier" }
                },
                {
                  "name": "orderIdentifier",
                  "in": "path",
                  "required": true,
                  "schema": { "$ref": "#/components/schemas/Identifier" }
                }
              ],
              "get": {
                "operationId": "containsOrder",
                "summary": "FinanceKit's containsOrder, with the stored facts.",
                "parameters": [
                  {
                    "name": "updatedDate",
                    "in": "query",
                    "schema": { "type": "string", "format": "date-time" },
                    "description": "Compared exactly with the stored updatedAt."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "exists, newerExists or olderExists",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OrderAnswer"}} }
                  },
                  "404": {
                    "description": "notFound (also for order types the key may not use)",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OrderAnswer"}} }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              },
              "delete": {
                "operationId": "removeOrder",
                "summary": "Remove the order, its history and its registrations.",
                "responses": {
                  "200": {
                    "description": "removed",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/RemoveAnswer"}} }
                  },
                  "404": {
                    "description": "not stored (or not the key's order type)",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/RemoveAnswer"}} }
                  },
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
                "responses": {
                  "200": { "description": "OpenAPI 3.1", "content": {"application/json": {}} }
                }
              }
            },
            "/finance/token": {
              "post": {
                "operationId": "token",
                "summary": "Exchange an authorization code (with PKCE) for tokens, or refresh them (RFC 6749 §4.1.3, §6).",
                "security": [{"clientCredentials": []}, {}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/x-www-form-urlencoded": {
                      "schema": {
                        "type": "object",
                        "required": ["grant_type"],
                        "properties": {
                          "grant_type": { "type": "string", "enum": ["authorization_code", "refresh_token"] },
                          "code": { "type": "string" },
                          "code_verifier": { "type": "string", "minLength": 43, "maxLength": 128 },
                          "redirect_uri": { "type": "string" },
                          "refresh_token": { "type": "string" },
                          "client_id": { "type": "string", "description": "With HTTP Basic: may be left out (must then match)." },
                          "client_secret": {
                            "type": "string",
                            "description": "A confidential client's secret, when not sent with HTTP Basic."
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "tokens (Cache-Control: no-store)",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/TokenResponse"}} }
                  },
                  "400": {
                    "description": "RFC 6749 §5.2: invalid_request, invalid_grant, unsupported_grant_type",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}} }
                  },
                  "401": {
                    "description": "invalid_client (WWW-Authenticate: Basic)",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}} }
                  },
                  "413": { "$ref": "#/components/responses/Error" },
                  "415": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/finance/revoke": {
              "post": {
                "operationId": "revoke",
                "summary": "Revoke a token (RFC 7009): an access token alone, a refresh token with every token of its grant.",
                "security": [{"clientCredentials": []}, {}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/x-www-form-urlencoded": {
                      "schema": {
                        "type": "object",
                        "required": ["token"],
                        "properties": {
                          "token": { "type": "string" },
                          "token_type_hint": { "type": "string", "enum": ["access_token", "refresh_token"] },
                          "client_id": { "type": "string", "description": "With HTTP Basic: may be left out (must then match)." },
                          "client_secret": {
                            "type": "string",
                            "description": "A confidential client's secret, when not sent with HTTP Basic."
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": { "description": "revoked, or not a token of this client (RFC 7009 §2.2): the same answer" },
                  "400": {
                    "description": "RFC 6749 §5.2: invalid_request",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}} }
                  },
                  "401": {
                    "description": "invalid_client (WWW-Authenticate: Basic)",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}} }
                  },
                  "413": { "$ref": "#/components/responses/Error" },
                  "415": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/.well-known/oauth-authorization-server": {
              "get": {
                "operationId": "authorizationServerMetadata",
                "summary": "The authorization server's metadata (RFC 8414): issuer, endpoints, PKCE S256, iss in responses (RFC 9207).",
                "responses": {
                  "200": {
                    "description": "the metadata",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["issuer", "authorization_endpoint", "token_endpoint", "revocation_endpoint", "code_challenge_methods_supported"],
                          "properties": {
                            "issuer": { "type": "string" },
                            "authorization_endpoint": { "type": "string" },
                            "token_endpoint": { "type": "string" },
                            "revocation_endpoint": { "type": "string" },
                            "response_types_supported": { "type": "array", "items": {"type": "string"} },
                            "response_modes_supported": { "type": "array", "items": {"type": "string"} },
                            "grant_types_supported": { "type": "array", "items": {"type": "string"} },
                            "code_challenge_methods_supported": { "type": "array", "items": {"type": "string"} },
                            "token_endpoint_auth_methods_supported": { "type": "array", "items": {"type": "string"} },
                            "revocation_endpoint_auth_methods_supported": { "type": "array", "items": {"type": "string"} },
                            "authorization_response_iss_parameter_supported": { "type": "boolean" }
                          }
                        }
                      }
                    }
                  }
                }
              }
            },
            "/finance/v1/picked-transactions": {
              "post": {
                "operationId": "pickedTransactions",
                "summary": "Redeem the transaction picker's code, once, for exactly the transactions the person picked.",
                "security": [{"clientCredentials": []}, {}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/x-www-form-urlencoded": {
                      "schema": {
                        "type": "object",
                        "required": ["code", "code_verifier", "redirect_uri"],
                        "properties": {
                          "code": { "type": "string" },
                          "code_verifier": { "type": "string", "minLength": 43, "maxLength": 128 },
                          "redirect_uri": { "type": "string" },
                          "client_id": { "type": "string", "description": "With HTTP Basic: may be left out (must then match)." },
                          "client_secret": {
                            "type": "string",
                            "description": "A confidential client's secret, when not sent with HTTP Basic."
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "the picked transactions",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["transactions"],
                          "properties": { "transactions": {"type": "array", "items": {"$ref": "#/components/schemas/Transaction"}} }
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "RFC 6749 §5.2: invalid_request, invalid_grant, unsupported_grant_type",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}} }
                  },
                  "401": {
                    "description": "invalid_client (WWW-Authenticate: Basic)",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}} }
                  },
                  "413": { "$ref": "#/components/responses/Error" },
                  "415": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/finance/v1/authorization": {
              "get": {
                "operationId": "authorizationStatus",
                "summary": "FinanceKit's authorizationStatus(): never prompts. An access token, or a confidential client's Basic credentials (a denied client holds no token).",
                "security": [{"financeToken": []}, {"clientCredentials": []}],
                "responses": {
                  "200": {
                    "description": "the status",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["status"],
                          "properties": { "status": {"type": "string", "enum": ["authorized", "denied", "notDetermined"]} }
                        }
                      }
                    }
                  },
                  "401": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/finance/v1/accounts": {
              "get": {
                "operationId": "accounts",
                "summary": "FinanceKit's accounts(query:): the accounts shared with the client.",
                "security": [{"financeToken": []}],
                "parameters": [
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 100 }
                  },
                  {
                    "name": "offset",
                    "in": "query",
                    "schema": { "type": "integer", "minimum": 0, "maximum": 1000000000, "default": 0 }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "the accounts",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["accounts"],
                          "properties": { "accounts": {"type": "array", "items": {"$ref": "#/components/schemas/Account"}} }
                        }
                      }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/finance/v1/accounts/{accountID}/balances": {
              "parameters": [
                {
                  "name": "accountID",
                  "in": "path",
                  "required": true,
                  "schema": { "type": "string", "format": "uuid" },
                  "description": "An account shared with the client (another is 404 access.unknownAccount)."
                }
              ],
              "get": {
                "operationId": "accountBalances",
                "summary": "FinanceKit's accountBalances(query:) for one account, with the query's availableSince / bookedSince helpers.",
                "security": [{"financeToken": []}],
                "parameters": [
                  {
                    "name": "availableSince",
                    "in": "query",
                    "schema": { "type": "string", "anyOf": [{"format": "date-time"}, {"format": "date"}] },
                    "description": "Balances whose available part is as of this date or later. An RFC 3339 date-time, or a day (YYYY-MM-DD, its start in UTC)."
                  },
                  {
                    "name": "bookedSince",
                    "in": "query",
                    "schema": { "type": "string", "anyOf": [{"format": "date-time"}, {"format": "date"}] },
                    "description": "The same for the booked part (when availableSince is absent). An RFC 3339 date-time, or a day (YYYY-MM-DD, its start in UTC)."
                  },
                  {
                    "name": "until",
                    "in": "query",
                    "schema": { "type": "string", "anyOf": [{"format": "date-time"}, {"format": "date"}] },
                    "description": "And before this date. An RFC 3339 date-time, or a day (YYYY-MM-DD, its start in UTC)."
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 100 }
                  },
                  {
                    "name": "offset",
                    "in": "query",
                    "schema": { "type": "integer", "minimum": 0, "maximum": 1000000000, "default": 0 }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "the balances",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["balances"],
                          "properties": { "balances": {"type": "array", "items": {"$ref": "#/components/schemas/AccountBalance"}} }
                        }
                      }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/finance/v1/transactions": {
              "get": {
                "operationId": "transactions",
                "summary": "FinanceKit's transactions(query:) with the query helpers' filters, a text search and cursors.",
                "security": [{"financeToken": []}],
                "parameters": [
                  {
                    "name": "account",
                    "in": "query",
                    "schema": { "type": "string", "format": "uuid" },
                    "description": "Only this account (one not shared is 404)."
                  },
                  {
                    "name": "status",
                    "in": "query",
                    "schema": {
                      "type": "array",
                      "items": { "type": "string", "enum": ["authorized", "booked", "memo", "pending", "rejected"] }
                    },
                    "style": "form",
                    "explode": true
                  },
                  {
                    "name": "type",
                    "in": "query",
                    "schema": {
                      "type": "array",
                      "items": {
                        "type": "string",
                        "enum": [
                          "adjustment",
                          "atm",
                          "billPayment",
                          "check",
                          "deposit",
                          "directDebit",
                          "directDeposit",
                          "dividend",
                          "fee",
                          "interest",
                          "loan",
                          "pointOfSale",
                          "refund",
                          "standingOrder",
                          "transfer",
                          "unknown",
                          "withdrawal"
                        ]
                      }
                    },
                    "style": "form",
                    "explode": true
                  },
                  {
                    "name": "mcc",
                    "in": "query",
                    "schema": { "type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9999} },
                    "style": "form",
                    "explode": true
                  },
                  {
                    "name": "merchant",
                    "in": "query",
                    "schema": { "type": "string" },
                    "description": "Exactly this merchant name."
                  },
                  {
                    "name": "since",
                    "in": "query",
                    "schema": { "type": "string", "anyOf": [{"format": "date-time"}, {"format": "date"}] },
                    "description": "On postedDate ?? transactionDate, from this date. An RFC 3339 date-time, or a day (YYYY-MM-DD, its start in UTC)."
                  },
                  {
                    "name": "until",
                    "in": "query",
                    "schema": { "type": "string", "anyOf": [{"format": "date-time"}, {"format": "date"}] },
                    "description": "Before this date. An RFC 3339 date-time, or a day (YYYY-MM-DD, its start in UTC)."
                  },
                  {
                    "name": "q",
                    "in": "query",
                    "schema": { "type": "string", "maxLength": 200 },
                    "description": "Text in the description, original description or merchant name; ASCII letters in either case."
                  },
                  {
                    "name": "sort",
                    "in": "query",
                    "schema": {
                      "type": "string",
                      "enum": [
                        "effectiveDate",
                        "effectiveDate:desc",
                        "transactionDate",
                        "transactionDate:desc",
                        "postedDate",
                        "postedDate:desc",
                        "amount",
                        "amount:desc",
                        "merchantName",
                        "merchantName:desc"
                      ]
                    }
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 100 }
                  },
                  {
                    "name": "cursor",
                    "in": "query",
                    "schema": { "type": "string", "pattern": "^([0-9a-f]{16}\\.[0-9]{1,12})?$" },
                    "description": "The nextCursor of the previous page of the same query (opaque: pass it back as it came). Empty or absent: the first page."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "a page",
                    "content": { "application/json": {"schema": {"$ref": "#/components/schemas/TransactionPage"}} }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/finance/v1/history/accounts": {
              "get": {
                "operationId": "accountHistory",
                "summary": "FinanceKit's accountHistory(since:isMonitoring:).",
                "security": [{"financeToken": []}],
                "parameters": [
                  {
                    "name": "since",
                    "in": "query",
                    "schema": { "type": "string" },
                    "description": "The newToken of the previous batch; absent: the current state as inserted. A token of another stream, store or revoked client, or behind compaction, is 400 finance.historyTokenInvalid."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The next batch. With Accept: text/event-stream: Server-Sent Events, one `changes` event per batch (its id the batch's token; Last-Event-ID resumes), a comment every 15 s, `expired` when the access token ends.",
                    "content": {
                      "application/json": { "schema": {"$ref": "#/components/schemas/HistoryBatch"} },
                      "text/event-stream": { "schema": {"type": "string"} }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/finance/v1/history/accounts/{accountID}/balances": {
              "get": {
                "operationId": "accountBalanceHistory",
                "summary": "FinanceKit's accountBalanceHistory(forAccountID:since:isMonitoring:).",
                "security": [{"financeToken": []}],
                "parameters": [
                  {
                    "name": "since",
                    "in": "query",
                    "schema": { "type": "string" },
                    "description": "The newToken of the previous batch; absent: the current state as inserted. A token of another stream, store or revoked client, or behind compaction, is 400 finance.historyTokenInvalid."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The next batch. With Accept: text/event-stream: Server-Sent Events, one `changes` event per batch (its id the batch's token; Last-Event-ID resumes), a comment every 15 s, `expired` when the access token ends.",
                    "content": {
                      "application/json": { "schema": {"$ref": "#/components/schemas/HistoryBatch"} },
                      "text/event-stream": { "schema": {"type": "string"} }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Error" }
                }
              },
              "parameters": [
                {
                  "name": "accountID",
                  "in": "path",
                  "required": true,
                  "schema": { "type": "string", "format": "uuid" },
                  "description": "An account shared with the client (another is 404 access.unknownAccount)."
                }
              ]
            },
            "/finance/v1/history/accounts/{accountID}/transactions": {
              "get": {
                "operationId": "transactionHistory",
                "summary": "FinanceKit's transactionHistory(forAccountID:since:isMonitoring:).",
                "security": [{"financeToken": []}],
                "parameters": [
                  {
                    "name": "since",
                    "in": "query",
                    "schema": { "type": "string" },
                    "description": "The newToken of the previous batch; absent: the current state as inserted. A token of another stream, store or revoked client, or behind compaction, is 400 finance.historyTokenInvalid."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The next batch. With Accept: text/event-stream: Server-Sent Events, one `changes` event per batch (its id the batch's token; Last-Event-ID resumes), a comment every 15 s, `expired` when the access token ends.",
                    "content": {
                      "application/json": { "schema": {"$ref": "#/components/schemas/HistoryBatch"} },
                      "text/event-stream": { "schema": {"type": "string"} }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Error" }
                }
              },
              "parameters": [
                {
                  "name": "accountID",
                  "in": "path",
                  "required": true,
                  "schema": { "type": "string", "format": "uuid" },
                  "description": "An account shared with the client (another is 404 access.unknownAccount)."
                }
              ]
            },
            "/finance/v1/background-delivery": {
              "get": {
                "operationId": "backgroundDeliveryEndpoints",
                "summary": "The client's background-delivery endpoints: types and frequencies, state, last delivery, last failure.",
                "security": [{"financeToken": []}],
                "responses": {
                  "200": {
                    "description": "the client's endpoints (Cache-Control: no-store)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["endpoints"],
                          "properties": { "endpoints": {"type": "array", "items": {"$ref": "#/components/schemas/DeliveryEndpoint"}} }
                        }
                      }
                    }
                  },
                  "401": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              },
              "put": {
                "operationId": "enableBackgroundDelivery",
                "summary": "FinanceKit's enableBackgroundDelivery(for:frequency:) with the endpoint's URL: creates the endpoint (201, with its signing secret, once) or changes the types' frequency (200). docs/background-delivery.md.",
                "security": [{"financeToken": []}],
                "requestBody": {
                  "required": true,
                  "content": { "application/json": {"schema": {"$ref": "#/components/schemas/DeliveryRegistration"}} }
                },
                "responses": {
                  "200": {
                    "description": "the endpoint, updated",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["endpoint"],
                          "properties": { "endpoint": {"$ref": "#/components/schemas/DeliveryEndpoint"} }
                        }
                      }
                    }
                  },
                  "201": {
                    "description": "the endpoint, created, with its secret",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["endpoint"],
                          "properties": { "endpoint": {"$ref": "#/components/schemas/DeliveryEndpoint"} }
                        }
                      }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" },
                  "413": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              },
              "delete": {
                "operationId": "disableBackgroundDelivery",
                "summary": "FinanceKit's disableBackgroundDelivery(for:) with types, disableAllBackgroundDelivery() without. Answers the endpoints left.",
                "security": [{"financeToken": []}],
                "parameters": [
                  {
                    "name": "types",
                    "in": "query",
                    "schema": {
                      "type": "string",
                      "pattern": "^(accounts|accountBalances|transactions)(,(accounts|accountBalances|transactions))*$"
                    },
                    "description": "Comma-separated data types to stop on every endpoint; absent: everything."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "the client's endpoints (Cache-Control: no-store)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": ["endpoints"],
                          "properties": { "endpoints": {"type": "array", "items": {"$ref": "#/components/schemas/DeliveryEndpoint"}} }
                        }
                      }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "501": { "$ref": "#/components/responses/Error" },
                  "503": { "$ref": "#/components/responses/Error" }
                }
              }
            }
          },
          "components": {
            "securitySchemes": {
              "apiKey": { "type": "http", "scheme": "bearer", "description": "A key from `orders keys create` (wok_…)." },
              "financeToken": {
                "type": "http",
                "scheme": "bearer",
                "description": "An access token from POST /finance/token (woa_…), granted by the data's owner (docs/finance-web.md)."
              },
              "clientCredentials": {
                "type": "http",
                "scheme": "basic",
                "description": "A registered client's id and secret (orders finance clients create), form-urlencoded (RFC 6749 §2.3.1)."
              }
            },
            "responses": {
              "Error": {
                "description": "an error",
                "content": { "application/json": {"schema": {"$ref": "#/components/schemas/Error"}} }
              }
            },
            "schemas": {
              "Identifier": {
                "type": "string",
                "minLength": 1,
                "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]+$",
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
                  "report": {
                    "type": ["object", "null"],
                    "description": "For store.invalidArchive: the report, as `orders verify --json` prints it."
                  }
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
                  "errors": { "type": "array", "items": {"$ref": "#/components/schemas/Issue"} },
                  "orderTypeIdentifier": { "type": ["string", "null"] },
                  "orderIdentifier": { "type": ["string", "null"] },
                  "updatedAt": { "type": ["string", "null"], "format": "date-time" },
                  "customerPage": {
                    "type": ["string", "null"],
                    "description": "On a PUT that added the version: the path, on this service, of the order's customer page (a signed link valid for 30 days; docs/pages.md). Null when no link can be signed (the order has no authenticationToken)."
                  }
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
                  "order": { "oneOf": [{"$ref": "#/components/schemas/StoredOrder"}, {"type": "null"}] }
                }
              },
              "OrderPage": {
                "type": "object",
                "required": ["orders", "nextCursor"],
                "properties": {
                  "orders": { "type": "array", "items": {"$ref": "#/components/schemas/StoredOrder"} },
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
              },
              "CurrencyAmount": {
                "type": "object",
                "required": ["amount", "currencyCode"],
                "properties": { "amount": {"type": "string", "description": "An exact decimal."}, "currencyCode": {"type": "string"} }
              },
              "Balance": {
                "type": "object",
                "required": ["amount", "asOfDate", "creditDebitIndicator"],
                "properties": {
                  "amount": { "$ref": "#/components/schemas/CurrencyAmount" },
                  "asOfDate": { "type": "string", "format": "date-time" },
                  "creditDebitIndicator": { "type": "string", "enum": ["credit", "debit"] }
                }
              },
              "Account": {
                "type": "object",
                "required": ["id", "type", "displayName", "institutionName", "currencyCode"],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "type": { "type": "string", "enum": ["asset", "liability"] },
                  "displayName": { "type": "string" },
                  "accountDescription": { "type": "string" },
                  "institutionName": { "type": "string" },
                  "currencyCode": { "type": "string" },
                  "openingDate": { "type": "string", "format": "date-time" },
                  "creditInformation": {
                    "type": "object",
                    "description": "Liability accounts: creditLimit, nextPaymentDueDate, minimumNextPaymentAmount, overduePaymentAmount."
                  }
                }
              },
              "AccountBalance": {
                "type": "object",
                "required": ["id", "accountID", "currentBalance"],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "accountID": { "type": "string", "format": "uuid" },
                  "currentBalance": {
                    "type": "object",
                    "properties": {
                      "available": { "$ref": "#/components/schemas/Balance" },
                      "booked": { "$ref": "#/components/schemas/Balance" }
                    },
                    "description": "available, booked, or both."
                  }
                }
              },
              "Transaction": {
                "type": "object",
                "required": [
                  "id",
                  "accountID",
                  "transactionAmount",
                  "creditDebitIndicator",
                  "transactionDescription",
                  "originalTransactionDescription",
                  "transactionType",
                  "status",
                  "transactionDate"
                ],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "accountID": { "type": "string", "format": "uuid" },
                  "transactionAmount": { "$ref": "#/components/schemas/CurrencyAmount" },
                  "foreignCurrencyAmount": { "$ref": "#/components/schemas/CurrencyAmount" },
                  "foreignCurrencyExchangeRate": { "type": "number" },
                  "creditDebitIndicator": { "type": "string", "enum": ["credit", "debit"] },
                  "transactionDescription": { "type": "string" },
                  "originalTransactionDescription": { "type": "string" },
                  "merchantCategoryCode": { "type": "integer" },
                  "merchantName": { "type": "string" },
                  "transactionType": { "type": "string" },
                  "status": { "type": "string" },
                  "transactionDate": { "type": "string", "format": "date-time" },
                  "postedDate": { "type": "string", "format": "date-time" }
                }
              },
              "TransactionPage": {
                "type": "object",
                "required": ["transactions", "nextCursor"],
                "properties": {
                  "transactions": { "type": "array", "items": {"$ref": "#/components/schemas/Transaction"} },
                  "nextCursor": { "type": ["string", "null"] }
                }
              },
              "HistoryBatch": {
                "type": "object",
                "required": ["stream", "inserted", "updated", "deleted", "newToken", "caughtUp"],
                "properties": {
                  "stream": { "type": "string" },
                  "inserted": { "type": "array", "items": {"type": "object"} },
                  "updated": { "type": "array", "items": {"type": "object"} },
                  "deleted": { "type": "array", "items": {"type": "string", "format": "uuid"} },
                  "newToken": { "type": "string", "description": "Opaque: pass it as since." },
                  "caughtUp": { "type": "boolean", "description": "Nothing was left after since (newToken is since)." }
                }
              },
              "TokenResponse": {
                "type": "object",
                "required": ["access_token", "token_type", "expires_in", "refresh_token"],
                "properties": {
                  "access_token": { "type": "string" },
                  "token_type": { "type": "string", "enum": ["Bearer"] },
                  "expires_in": { "type": "integer" },
                  "refresh_token": { "type": "string" }
                }
              },
              "OAuthError": {
                "type": "object",
                "required": ["error", "error_description"],
                "properties": { "error": {"type": "string"}, "error_description": {"type": "string"} }
              },
              "DeliveryRegistration": {
                "type": "object",
                "required": ["types", "frequency", "url"],
                "additionalProperties": false,
                "properties": {
                  "types": {
                    "type": "array",
                    "items": { "type": "string", "enum": ["accounts", "accountBalances", "transactions"] },
                    "minItems": 1,
                    "maxItems": 8
                  },
                  "frequency": { "type": "string", "enum": ["hourly", "daily", "weekly"] },
                  "url": {
                    "type": "string",
                    "format": "uri",
                    "maxLength": 2048,
                    "description": "https; a host that resolves to public addresses only (docs/background-delivery.md)."
                  }
                }
              },
              "DeliveryEndpoint": {
                "type": "object",
                "required": [
                  "id",
                  "clientID",
                  "url",
                  "types",
                  "state",
                  "createdAt",
                  "disabled",
                  "lastDelivery",
                  "lastFailure",
                  "pendingDeliveries",
                  "secret",
                  "standardWebhooksSecret"
                ],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "clientID": { "type": "string" },
                  "url": { "type": "string" },
                  "types": {
                    "type": "object",
                    "additionalProperties": { "type": "string", "enum": ["hourly", "daily", "weekly"] },
                    "description": "Each data type delivered, with its frequency."
                  },
                  "state": { "type": "string", "enum": ["active", "disabled"] },
                  "createdAt": { "type": "string", "format": "date-time" },
                  "disabled": {
                    "type": ["object", "null"],
                    "properties": { "at": {"type": "string", "format": "date-time"}, "reason": {"type": "string"} },
                    "description": "The endpoint answered 410 Gone; PUT it again to resume."
                  },
                  "lastDelivery": {
                    "type": ["object", "null"],
                    "properties": {
                      "deliveryID": { "type": "string", "format": "uuid" },
                      "at": { "type": "string", "format": "date-time" },
                      "types": {
                        "type": "array",
                        "items": { "type": "string", "enum": ["accounts", "accountBalances", "transactions"] }
                      }
                    }
                  },
                  "lastFailure": {
                    "type": ["object", "null"],
                    "properties": {
                      "deliveryID": { "type": "string", "format": "uuid" },
                      "at": { "type": "string", "format": "date-time" },
                      "reason": { "type": "string" }
                    }
                  },
                  "pendingDeliveries": { "type": "integer", "minimum": 0 },
                  "secret": {
                    "type": ["string", "null"],
                    "description": "The signing secret (wds_…): only in the answer that created the endpoint."
                  },
                  "standardWebhooksSecret": {
                    "type": ["string", "null"],
                    "description": "The same secret as Standard Webhooks libraries take it (whsec_…): only in the answer that created the endpoint."
                  }
                }
              }
            }
          }
        }
        """#
}
