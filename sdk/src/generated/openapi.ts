/**
 * Generated from the Roomtone OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
 * Do not edit: run `npm run sdk:types` at the repository root.
 */

export type paths = {
    "/renders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render a draft photorealistically
         * @description **Permission:** `renders`.
         *
         *     Answers 200 with the ended generation (usually 1 to 3 minutes; set a client timeout of at least 5 minutes), or 202 with the in-progress generation when `background` is true, under heavy load, after 4 min 30 s, or if the server restarts. Accepts JSON (image URLs) or multipart/form-data (files named as their field). Header `Idempotency-Key` (1–255 characters) makes retries safe.
         */
        post: operations["creations-render"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/edits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit an image by instruction or by colour mask
         * @description **Permission:** `edits`.
         *
         *     Answers 200 with the ended generation (usually 1 to 3 minutes; set a client timeout of at least 5 minutes), or 202 with the in-progress generation when `background` is true, under heavy load, after 4 min 30 s, or if the server restarts. Accepts JSON (image URLs) or multipart/form-data (files named as their field). Header `Idempotency-Key` (1–255 characters) makes retries safe.
         */
        post: operations["creations-edit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decorations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decorate a furnished room
         * @description **Permission:** `decorations`.
         *
         *     Answers 200 with the ended generation (usually 1 to 3 minutes; set a client timeout of at least 5 minutes), or 202 with the in-progress generation when `background` is true, under heavy load, after 4 min 30 s, or if the server restarts. Accepts JSON (image URLs) or multipart/form-data (files named as their field). Header `Idempotency-Key` (1–255 characters) makes retries safe.
         */
        post: operations["creations-decoration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/upscales": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upscale x2 or x4 without changing the content
         * @description **Permission:** `upscales`.
         *
         *     Answers 200 with the ended generation (usually 1 to 3 minutes; set a client timeout of at least 5 minutes), or 202 with the in-progress generation when `background` is true, under heavy load, after 4 min 30 s, or if the server restarts. Accepts JSON (image URLs) or multipart/form-data (files named as their field). Header `Idempotency-Key` (1–255 characters) makes retries safe.
         */
        post: operations["creations-upscale"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a generation
         * @description **Permission:** `generations_read`.
         */
        get: operations["generations-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List generations, most recent first
         * @description **Permission:** `generations_read`.
         */
        get: operations["generations-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generations/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a generation that has not started
         * @description **Permission:** `generations_read`, and the permission of the generation’s type (`renders`, `edits`, `decorations` or `upscales`).
         *
         *     Also needs the permission of the generation type (renders, edits, decorations or upscales).
         */
        post: operations["generations-cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/styles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List decoration styles
         * @description **Permission:** `decorations`.
         *
         *     Styles for decorations and renders (optional `style`). Permission: decorations (an unknown `style` in a render names the valid ids).
         */
        get: operations["reference-styles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/edit-material-categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List edit material categories
         * @description **Permission:** `edits`.
         */
        get: operations["reference-editMaterialCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/edit-materials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List edit materials
         * @description **Permission:** `edits`.
         */
        get: operations["reference-editMaterials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List prices
         * @description **Permission:** `renders` or `edits` or `decorations` or `upscales`.
         *
         *     The price of one generation of each type at each quality (renders, edits, decorations) or scale (upscales) for the key’s organization, its tier discount applied: the `cost.amount` a creation accepted now gets. Test mode charges nothing; the prices are those live mode charges. An extension to the specification.
         */
        get: operations["prices-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve the balance (extension)
         * @description **Permission:** `renders` or `edits` or `decorations` or `upscales` or `generations_read`.
         *
         *     **An addition to the specification**, which shows the balance object only inside balance events: the same object (`object`, `amount`, `currency`, `unit`) plus `monthly_limit` and `monthly_spend`, so an integration can check what a batch may spend before it starts. Money exists in live mode only (test generations are never charged): a test key reads the same figures.
         */
        get: operations["balance-retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trigger a sample test-mode event (extension)
         * @description **Permission:** `generations_read`.
         *
         *     **An extension to the specification**, as `stripe trigger`: a sample event of the type (fictitious ids, no image) is produced in test mode as a real one is: one signed delivery to each active test endpoint that follows the type, and the open event streams (`listen`). Test keys only. From a terminal: `npx @roomtone/sdk trigger generation.succeeded`.
         */
        post: operations["events-trigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream test-mode events (extension)
         * @description **Permission:** `generations_read`, test keys only.
         *
         *     **An extension to the specification** for developing webhook receivers on a machine that webhooks cannot reach (e.g. `localhost`): Server-Sent Events carrying the organization's test-mode events, each `data` being the body a webhook endpoint would receive. While a stream is open its events are produced even if no endpoint follows them. A reconnection with `Last-Event-ID` resumes after that event. The first message is `event: ready`; a comment every 15 seconds keeps the connection open. `npx @roomtone/sdk listen --forward-to <url>` forwards each event to a local URL, signed with a secret it prints. At most 10 streams per organization.
         */
        get: operations["events-stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    "generation.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * generation.succeeded
         * @description Sent to the webhook endpoints that follow this type, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Verify with `Roomtone.webhooks.unwrap(body, headers, secret)` of the SDK, or any Standard Webhooks library.
         */
        post: operations["webhook-generation.succeeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "generation.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * generation.failed
         * @description Sent to the webhook endpoints that follow this type, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Verify with `Roomtone.webhooks.unwrap(body, headers, secret)` of the SDK, or any Standard Webhooks library.
         */
        post: operations["webhook-generation.failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "generation.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * generation.canceled
         * @description Sent to the webhook endpoints that follow this type, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Verify with `Roomtone.webhooks.unwrap(body, headers, secret)` of the SDK, or any Standard Webhooks library.
         */
        post: operations["webhook-generation.canceled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "balance.low": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * balance.low
         * @description Sent to the webhook endpoints that follow this type, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Verify with `Roomtone.webhooks.unwrap(body, headers, secret)` of the SDK, or any Standard Webhooks library.
         */
        post: operations["webhook-balance.low"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "balance.recharge_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * balance.recharge_failed
         * @description Sent to the webhook endpoints that follow this type, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Verify with `Roomtone.webhooks.unwrap(body, headers, secret)` of the SDK, or any Standard Webhooks library.
         */
        post: operations["webhook-balance.recharge_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "balance.expiring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * balance.expiring
         * @description Sent to the webhook endpoints that follow this type, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Verify with `Roomtone.webhooks.unwrap(body, headers, secret)` of the SDK, or any Standard Webhooks library.
         */
        post: operations["webhook-balance.expiring"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        Generation: {
            /** @constant */
            object: "generation";
            /** @example gen_3kTq9ZbX2mPw7LrV1sNc8YdA */
            id: string;
            /** @enum {string} */
            type: "render" | "edit" | "decoration" | "upscale";
            /** @enum {string} */
            status: "in_progress" | "succeeded" | "failed" | "canceled";
            /**
             * @description Fraction done, 0 to 1. While in_progress: 0 until processing starts, then as the engine running it reports (null when it cannot tell, e.g. a model that reports no progress). 1 once succeeded; null once failed or canceled.
             * @example 0.42
             */
            progress: number | null;
            cancelable: boolean;
            livemode: boolean;
            created_at: number;
            completed_at: number | null;
            input: {
                [key: string]: unknown;
            };
            output: {
                url: string;
                url_expires_at: number;
                content_type: string;
                width: number;
                height: number;
            }[];
            error: {
                code: ("generation_failed" | "content_policy_violation") | string;
                message: string;
            } | null;
            cost: {
                amount: number;
                /** @constant */
                currency: "eur";
                /** @constant */
                unit: "cents";
                discount_percent: number;
                amount_refunded: number;
            };
            metadata: {
                [key: string]: string;
            };
            expires_at: number;
        };
        GenerationList: {
            /** @constant */
            object: "list";
            data: components["schemas"]["Generation"][];
            has_more: boolean;
        };
        StyleList: {
            /** @constant */
            object: "list";
            data: components["schemas"]["Style"][];
            has_more: boolean;
        };
        Style: {
            /** @constant */
            object: "style";
            id: string;
            name: string;
            description: string;
        };
        EditMaterialCategoryList: {
            /** @constant */
            object: "list";
            data: components["schemas"]["EditMaterialCategory"][];
            has_more: boolean;
        };
        EditMaterialCategory: {
            /** @constant */
            object: "edit_material_category";
            id: string;
            name: string;
            description: string;
        };
        EditMaterialList: {
            /** @constant */
            object: "list";
            data: components["schemas"]["EditMaterial"][];
            has_more: boolean;
        };
        EditMaterial: {
            /** @constant */
            object: "edit_material";
            id: string;
            name: string;
            description: string;
            category: string;
        };
        PriceList: {
            /** @constant */
            object: "list";
            data: components["schemas"]["Price"][];
            has_more: boolean;
        };
        Price: {
            /** @constant */
            object: "price";
            /** @enum {string} */
            type: "render" | "edit" | "decoration" | "upscale";
            quality: ("1k" | "2k" | "4k" | "8k") | null;
            scale: ("x2" | "x4") | null;
            /** @description What `cost.amount` of a generation accepted now will be: the list price less the tier discount, in cents. */
            amount: number;
            list_amount: number;
            discount_percent: number;
            /** @constant */
            currency: "eur";
            /** @constant */
            unit: "cents";
        };
        AccountBalance: {
            /** @constant */
            object: "balance";
            /** @description The balance, in euro cents excluding tax. */
            amount: number;
            /** @constant */
            currency: "eur";
            /** @constant */
            unit: "cents";
            /** @description The monthly spending limit, in cents: live charges net of refunds in a calendar month (UTC) may not pass it. */
            monthly_limit: number;
            /** @description Live charges net of refunds so far this calendar month (UTC), in cents. */
            monthly_spend: number;
        };
        TriggeredEvent: {
            /** @constant */
            object: "triggered_event";
            type: string;
            /** @description The event produced (evt_…), or null when no active test endpoint and no open event stream follows the type. */
            event_id: string | null;
            /** @description Active test endpoints following the type: each gets one signed delivery. */
            endpoints: number;
            /** @description Whether an open event stream (`listen`) follows the type. */
            event_stream: boolean;
        };
        Error: {
            error: {
                /** @description Stable error code, e.g. parameter_invalid. */
                code: string;
                /** @description Human-readable explanation. */
                message: string;
                /** @description The refused parameter, when one is to blame (e.g. layers[0].element). */
                param?: string;
            };
        };
        /** @description The balance, in euro cents excluding tax, with the fields of its event. */
        Balance: {
            /** @constant */
            object: "balance";
            amount: number;
            /** @constant */
            currency: "eur";
            /** @constant */
            unit: "cents";
            /** @description balance.low: the threshold crossed. */
            low_balance_threshold?: number;
            /** @description balance.recharge_failed. */
            failed_recharge?: {
                amount: number;
                auto_recharge_enabled: boolean;
            };
            /** @description balance.expiring. */
            expiring?: {
                amount: number;
                expires_at: number;
            };
        };
        GenerationEvent: {
            /** @description evt_…, equal to the webhook-id header. */
            id: string;
            /** @enum {string} */
            type: "generation.succeeded" | "generation.failed" | "generation.canceled";
            created_at: number;
            livemode: boolean;
            data: {
                object: components["schemas"]["Generation"];
            };
        };
        BalanceEvent: {
            /** @description evt_…, equal to the webhook-id header. */
            id: string;
            /** @enum {string} */
            type: "balance.low" | "balance.recharge_failed" | "balance.expiring";
            created_at: number;
            /** @description Always true: balance events are live mode. */
            livemode: boolean;
            data: {
                object: components["schemas"]["Balance"];
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Unique id of this request (req_…). */
        "request-id": string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    "creations-render": {
        parameters: {
            query?: never;
            header?: {
                /** @description 1–255 printable ASCII characters. The same key and request return the same generation, with no second charge (remembered 24 hours). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels. */
                    image: string;
                    /**
                     * @description Output size: long side 1024 (1k), 2048 (2k), 4096 (4k) or 8192 (8k) pixels, proportions kept.
                     * @default 2k
                     * @enum {string}
                     */
                    quality?: "1k" | "2k" | "4k" | "8k";
                    /** @description A style id from GET /v1/styles. */
                    style?: string;
                    /** @description Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description `true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation. */
                    background?: true | false;
                };
                "multipart/form-data": {
                    /** @description The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels. */
                    image: string;
                    /**
                     * @description Output size: long side 1024 (1k), 2048 (2k), 4096 (4k) or 8192 (8k) pixels, proportions kept.
                     * @default 2k
                     * @enum {string}
                     */
                    quality?: "1k" | "2k" | "4k" | "8k";
                    /** @description A style id from GET /v1/styles. */
                    style?: string;
                    /** @description Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description `true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation. */
                    background?: true | false;
                };
            };
        };
        responses: {
            /** @description The generation has ended (succeeded or failed: a failure is not an HTTP error). */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "render",
                     *       "status": "succeeded",
                     *       "progress": 1,
                     *       "cancelable": false,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": 1764000094,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "style": "scandinavian"
                     *       },
                     *       "output": [
                     *         {
                     *           "url": "https://roomtone.example/files/gen_3kTq9ZbX2mPw7LrV1sNc8YdA/0.webp?expires=1764001000&signature=Xk2…",
                     *           "url_expires_at": 1764000994,
                     *           "content_type": "image/webp",
                     *           "width": 2048,
                     *           "height": 1536
                     *         }
                     *       ],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086494
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description Accepted: the generation is in progress (background, heavy load, 4 min 30 s passed, or a server restart). */
            202: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "render",
                     *       "status": "in_progress",
                     *       "progress": 0.42,
                     *       "cancelable": true,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": null,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "style": "scandinavian"
                     *       },
                     *       "output": [],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086400
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /**
             * @description `image_dimensions_invalid`: An image is over 8192 pixels a side or 36 million pixels.
             *
             *     `image_unreadable`: An image could not be decoded.
             *
             *     `image_url_unreachable`: An image URL could not be downloaded: unreachable or private address, error answer, redirect to http, timeout, expired URL (`param` names the field).
             *
             *     `parameter_invalid`: Missing, unknown or invalid field (`param` names it); metadata limits; an image value that is neither an https URL nor a file of the request; a base64 image; a file under another field name or sent twice. An unknown `style`.
             */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_spend_cap_reached`: Live mode: the generation would pass the monthly spend cap of the key that sent it. Nothing was charged. An extension to the specification.
             *
             *     `insufficient_balance`: Live mode: the balance does not cover the price. Nothing was charged.
             *
             *     `monthly_limit_reached`: Live mode: the generation would pass the organization’s monthly spending limit.
             */
            402: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `idempotency_key_mismatch`: This Idempotency-Key was already used with different parameters.
             *
             *     `idempotency_key_reused`: This Idempotency-Key was first used on another door (MCP or the console playground).
             */
            409: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `image_too_large`: An image is over 10 MB.
             *
             *     `request_too_large`: JSON body over 64 KB, multipart text fields over 64 KB, or a body beyond five images of 10 MB.
             */
            413: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_image_type`: Not JPEG, PNG or WebP (recognized from the content), or a URL that does not return an image. */
            415: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `generation_rate_limit_exceeded`: Generation quota (Generations/min or /h of the tier, per mode) exceeded. `Retry-After` gives the seconds to wait; nothing was created or charged.
             *
             *     `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait.
             */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `mode_unavailable`: Live mode: no generative model is configured for this operation, or it is temporarily unavailable. Nothing was charged.
             *
             *     `overloaded`: Live mode under heavy load: refused at admission. `Retry-After` 30 to 300 seconds; nothing was charged.
             */
            503: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "creations-edit": {
        parameters: {
            query?: never;
            header?: {
                /** @description 1–255 printable ASCII characters. The same key and request return the same generation, with no second charge (remembered 24 hours). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels. */
                    image: string;
                    /**
                     * @description `prompt`: edit by written instruction; `mask`: edit the areas painted in a colour mask, one layer per colour.
                     * @enum {string}
                     */
                    mode: "prompt" | "mask";
                    /**
                     * @description Output size: long side 1024 (1k), 2048 (2k), 4096 (4k) or 8192 (8k) pixels, proportions kept.
                     * @enum {string}
                     */
                    quality: "1k" | "2k" | "4k" | "8k";
                    /** @description Prompt mode: the instruction, 1 to 1000 characters, any language. Line breaks and tabs allowed; other control and invisible characters refused. */
                    prompt?: string;
                    /** @description PNG mask (URL or file part `mask`) at the image’s proportions, long side at least 512 pixels. Palette: #FF0000, #CCFF00, #00FF66, #0066FF, #CC00FF. */
                    mask?: string;
                    /** @description Mask mode: 1 to 3 layers, one per painted colour. A file for `layers[N].element` is the multipart part `layers[N].element`. */
                    layers?: ({
                        mask_color: string;
                        /** @constant */
                        action: "modify";
                        material?: string;
                        color?: string;
                        /** @enum {string} */
                        finish?: "default" | "solid_glossy" | "solid_matte" | "wood" | "stone" | "metal" | "fabric" | "concrete";
                    } | {
                        mask_color: string;
                        /** @constant */
                        action: "remove";
                    } | {
                        mask_color: string;
                        /** @constant */
                        action: "add";
                        element: string;
                    } | {
                        mask_color: string;
                        /** @constant */
                        action: "replace";
                        element: string;
                    })[];
                    /** @description Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description `true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation. */
                    background?: true | false;
                };
                "multipart/form-data": {
                    /** @description The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels. */
                    image: string;
                    /**
                     * @description `prompt`: edit by written instruction; `mask`: edit the areas painted in a colour mask, one layer per colour.
                     * @enum {string}
                     */
                    mode: "prompt" | "mask";
                    /**
                     * @description Output size: long side 1024 (1k), 2048 (2k), 4096 (4k) or 8192 (8k) pixels, proportions kept.
                     * @enum {string}
                     */
                    quality: "1k" | "2k" | "4k" | "8k";
                    /** @description Prompt mode: the instruction, 1 to 1000 characters, any language. Line breaks and tabs allowed; other control and invisible characters refused. */
                    prompt?: string;
                    /** @description PNG mask (URL or file part `mask`) at the image’s proportions, long side at least 512 pixels. Palette: #FF0000, #CCFF00, #00FF66, #0066FF, #CC00FF. */
                    mask?: string;
                    /** @description Mask mode: 1 to 3 layers, one per painted colour. A file for `layers[N].element` is the multipart part `layers[N].element`. */
                    layers?: ({
                        mask_color: string;
                        /** @constant */
                        action: "modify";
                        material?: string;
                        color?: string;
                        /** @enum {string} */
                        finish?: "default" | "solid_glossy" | "solid_matte" | "wood" | "stone" | "metal" | "fabric" | "concrete";
                    } | {
                        mask_color: string;
                        /** @constant */
                        action: "remove";
                    } | {
                        mask_color: string;
                        /** @constant */
                        action: "add";
                        element: string;
                    } | {
                        mask_color: string;
                        /** @constant */
                        action: "replace";
                        element: string;
                    })[];
                    /** @description Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description `true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation. */
                    background?: true | false;
                };
            };
        };
        responses: {
            /** @description The generation has ended (succeeded or failed: a failure is not an HTTP error). */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "edit",
                     *       "status": "succeeded",
                     *       "progress": 1,
                     *       "cancelable": false,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": 1764000094,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "mode": "prompt",
                     *         "prompt": "Replace the sofa with a green velvet one"
                     *       },
                     *       "output": [
                     *         {
                     *           "url": "https://roomtone.example/files/gen_3kTq9ZbX2mPw7LrV1sNc8YdA/0.webp?expires=1764001000&signature=Xk2…",
                     *           "url_expires_at": 1764000994,
                     *           "content_type": "image/webp",
                     *           "width": 2048,
                     *           "height": 1536
                     *         }
                     *       ],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086494
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description Accepted: the generation is in progress (background, heavy load, 4 min 30 s passed, or a server restart). */
            202: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "render",
                     *       "status": "in_progress",
                     *       "progress": 0.42,
                     *       "cancelable": true,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": null,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "style": "scandinavian"
                     *       },
                     *       "output": [],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086400
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /**
             * @description `image_dimensions_invalid`: An image is over 8192 pixels a side or 36 million pixels.
             *
             *     `image_unreadable`: An image could not be decoded.
             *
             *     `image_url_unreachable`: An image URL could not be downloaded: unreachable or private address, error answer, redirect to http, timeout, expired URL (`param` names the field).
             *
             *     `mask_colors_mismatch`: A layer’s colour is not painted (`param` names the layer), a painted colour has no layer (`param` is `mask`), or, in prompt mode, the mask does not have exactly one painted colour.
             *
             *     `mask_dimensions_mismatch`: The mask’s proportions differ from the image’s (more than 1%), or its long side is under 512 pixels (or the image’s, if smaller).
             *
             *     `mask_invalid`: The mask is unreadable or not a PNG.
             *
             *     `parameter_invalid`: Missing, unknown or invalid field (`param` names it); metadata limits; an image value that is neither an https URL nor a file of the request; a base64 image; a file under another field name or sent twice. A field of the other mode; a colour outside the palette or repeated; a layer holding fields of another action; a non-compliant instruction.
             */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_spend_cap_reached`: Live mode: the generation would pass the monthly spend cap of the key that sent it. Nothing was charged. An extension to the specification.
             *
             *     `insufficient_balance`: Live mode: the balance does not cover the price. Nothing was charged.
             *
             *     `monthly_limit_reached`: Live mode: the generation would pass the organization’s monthly spending limit.
             */
            402: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `resource_not_found`: Unknown or withdrawn edit material (`param` names the layer). */
            404: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `idempotency_key_mismatch`: This Idempotency-Key was already used with different parameters.
             *
             *     `idempotency_key_reused`: This Idempotency-Key was first used on another door (MCP or the console playground).
             */
            409: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `image_too_large`: An image is over 10 MB.
             *
             *     `request_too_large`: JSON body over 64 KB, multipart text fields over 64 KB, or a body beyond five images of 10 MB.
             */
            413: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_image_type`: Not JPEG, PNG or WebP (recognized from the content), or a URL that does not return an image. */
            415: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `content_policy_violation`: Live mode: the instruction was refused by moderation. Do not resend it as is; nothing was charged. */
            422: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `generation_rate_limit_exceeded`: Generation quota (Generations/min or /h of the tier, per mode) exceeded. `Retry-After` gives the seconds to wait; nothing was created or charged.
             *
             *     `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait.
             */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `mode_unavailable`: Live mode: no generative model is configured for this operation, or it is temporarily unavailable. Nothing was charged.
             *
             *     `overloaded`: Live mode under heavy load: refused at admission. `Retry-After` 30 to 300 seconds; nothing was charged.
             *
             *     `service_unavailable`: Live mode: moderation is temporarily unavailable. Resend after `Retry-After` (30 seconds); nothing was charged.
             */
            503: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "creations-decoration": {
        parameters: {
            query?: never;
            header?: {
                /** @description 1–255 printable ASCII characters. The same key and request return the same generation, with no second charge (remembered 24 hours). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels. */
                    image: string;
                    /**
                     * @description Output size: long side 1024 (1k), 2048 (2k), 4096 (4k) or 8192 (8k) pixels, proportions kept.
                     * @default 2k
                     * @enum {string}
                     */
                    quality?: "1k" | "2k" | "4k" | "8k";
                    /** @description A style id from GET /v1/styles. */
                    style?: string;
                    /** @description Accessories to add (decorations); default: those that suit the style. */
                    categories?: ("plants" | "rugs" | "cushions" | "throws" | "lighting" | "wall_art" | "mirrors" | "books" | "vases" | "tableware" | "curtains" | "sculptures")[];
                    /** @description Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description `true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation. */
                    background?: true | false;
                };
                "multipart/form-data": {
                    /** @description The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels. */
                    image: string;
                    /**
                     * @description Output size: long side 1024 (1k), 2048 (2k), 4096 (4k) or 8192 (8k) pixels, proportions kept.
                     * @default 2k
                     * @enum {string}
                     */
                    quality?: "1k" | "2k" | "4k" | "8k";
                    /** @description A style id from GET /v1/styles. */
                    style?: string;
                    /** @description Accessories to add (decorations); default: those that suit the style. */
                    categories?: ("plants" | "rugs" | "cushions" | "throws" | "lighting" | "wall_art" | "mirrors" | "books" | "vases" | "tableware" | "curtains" | "sculptures")[];
                    /** @description Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description `true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation. */
                    background?: true | false;
                };
            };
        };
        responses: {
            /** @description The generation has ended (succeeded or failed: a failure is not an HTTP error). */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "decoration",
                     *       "status": "succeeded",
                     *       "progress": 1,
                     *       "cancelable": false,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": 1764000094,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "style": "scandinavian",
                     *         "categories": [
                     *           "plants",
                     *           "lighting"
                     *         ]
                     *       },
                     *       "output": [
                     *         {
                     *           "url": "https://roomtone.example/files/gen_3kTq9ZbX2mPw7LrV1sNc8YdA/0.webp?expires=1764001000&signature=Xk2…",
                     *           "url_expires_at": 1764000994,
                     *           "content_type": "image/webp",
                     *           "width": 2048,
                     *           "height": 1536
                     *         }
                     *       ],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086494
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description Accepted: the generation is in progress (background, heavy load, 4 min 30 s passed, or a server restart). */
            202: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "render",
                     *       "status": "in_progress",
                     *       "progress": 0.42,
                     *       "cancelable": true,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": null,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "style": "scandinavian"
                     *       },
                     *       "output": [],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086400
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /**
             * @description `image_dimensions_invalid`: An image is over 8192 pixels a side or 36 million pixels.
             *
             *     `image_unreadable`: An image could not be decoded.
             *
             *     `image_url_unreachable`: An image URL could not be downloaded: unreachable or private address, error answer, redirect to http, timeout, expired URL (`param` names the field).
             *
             *     `parameter_invalid`: Missing, unknown or invalid field (`param` names it); metadata limits; an image value that is neither an https URL nor a file of the request; a base64 image; a file under another field name or sent twice. An unknown `style` or category.
             */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_spend_cap_reached`: Live mode: the generation would pass the monthly spend cap of the key that sent it. Nothing was charged. An extension to the specification.
             *
             *     `insufficient_balance`: Live mode: the balance does not cover the price. Nothing was charged.
             *
             *     `monthly_limit_reached`: Live mode: the generation would pass the organization’s monthly spending limit.
             */
            402: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `idempotency_key_mismatch`: This Idempotency-Key was already used with different parameters.
             *
             *     `idempotency_key_reused`: This Idempotency-Key was first used on another door (MCP or the console playground).
             */
            409: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `image_too_large`: An image is over 10 MB.
             *
             *     `request_too_large`: JSON body over 64 KB, multipart text fields over 64 KB, or a body beyond five images of 10 MB.
             */
            413: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_image_type`: Not JPEG, PNG or WebP (recognized from the content), or a URL that does not return an image. */
            415: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `generation_rate_limit_exceeded`: Generation quota (Generations/min or /h of the tier, per mode) exceeded. `Retry-After` gives the seconds to wait; nothing was created or charged.
             *
             *     `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait.
             */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `mode_unavailable`: Live mode: no generative model is configured for this operation, or it is temporarily unavailable. Nothing was charged.
             *
             *     `overloaded`: Live mode under heavy load: refused at admission. `Retry-After` 30 to 300 seconds; nothing was charged.
             */
            503: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "creations-upscale": {
        parameters: {
            query?: never;
            header?: {
                /** @description 1–255 printable ASCII characters. The same key and request return the same generation, with no second charge (remembered 24 hours). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels. */
                    image: string;
                    /**
                     * @description Upscaling factor.
                     * @default x2
                     * @enum {string}
                     */
                    scale?: "x2" | "x4";
                    /** @description Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description `true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation. */
                    background?: true | false;
                };
                "multipart/form-data": {
                    /** @description The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels. */
                    image: string;
                    /**
                     * @description Upscaling factor.
                     * @default x2
                     * @enum {string}
                     */
                    scale?: "x2" | "x4";
                    /** @description Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description `true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation. */
                    background?: true | false;
                };
            };
        };
        responses: {
            /** @description The generation has ended (succeeded or failed: a failure is not an HTTP error). */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "upscale",
                     *       "status": "succeeded",
                     *       "progress": 1,
                     *       "cancelable": false,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": 1764000094,
                     *       "input": {
                     *         "quality": null,
                     *         "scale": "x2"
                     *       },
                     *       "output": [
                     *         {
                     *           "url": "https://roomtone.example/files/gen_3kTq9ZbX2mPw7LrV1sNc8YdA/0.webp?expires=1764001000&signature=Xk2…",
                     *           "url_expires_at": 1764000994,
                     *           "content_type": "image/webp",
                     *           "width": 4096,
                     *           "height": 3072
                     *         }
                     *       ],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086494
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description Accepted: the generation is in progress (background, heavy load, 4 min 30 s passed, or a server restart). */
            202: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "render",
                     *       "status": "in_progress",
                     *       "progress": 0.42,
                     *       "cancelable": true,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": null,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "style": "scandinavian"
                     *       },
                     *       "output": [],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086400
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /**
             * @description `image_dimensions_invalid`: An image is over 8192 pixels a side or 36 million pixels, or the output would pass 16,384 pixels a side or 64 million pixels.
             *
             *     `image_unreadable`: An image could not be decoded.
             *
             *     `image_url_unreachable`: An image URL could not be downloaded: unreachable or private address, error answer, redirect to http, timeout, expired URL (`param` names the field).
             *
             *     `parameter_invalid`: Missing, unknown or invalid field (`param` names it); metadata limits; an image value that is neither an https URL nor a file of the request; a base64 image; a file under another field name or sent twice.
             */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_spend_cap_reached`: Live mode: the generation would pass the monthly spend cap of the key that sent it. Nothing was charged. An extension to the specification.
             *
             *     `insufficient_balance`: Live mode: the balance does not cover the price. Nothing was charged.
             *
             *     `monthly_limit_reached`: Live mode: the generation would pass the organization’s monthly spending limit.
             */
            402: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `idempotency_key_mismatch`: This Idempotency-Key was already used with different parameters.
             *
             *     `idempotency_key_reused`: This Idempotency-Key was first used on another door (MCP or the console playground).
             */
            409: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `image_too_large`: An image is over 10 MB.
             *
             *     `request_too_large`: JSON body over 64 KB, multipart text fields over 64 KB, or a body beyond five images of 10 MB.
             */
            413: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_image_type`: Not JPEG, PNG or WebP (recognized from the content), or a URL that does not return an image. */
            415: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `generation_rate_limit_exceeded`: Generation quota (Generations/min or /h of the tier, per mode) exceeded. `Retry-After` gives the seconds to wait; nothing was created or charged.
             *
             *     `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait.
             */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "generations-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The generation id (gen_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "render",
                     *       "status": "succeeded",
                     *       "progress": 1,
                     *       "cancelable": false,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": 1764000094,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "style": "scandinavian"
                     *       },
                     *       "output": [
                     *         {
                     *           "url": "https://roomtone.example/files/gen_3kTq9ZbX2mPw7LrV1sNc8YdA/0.webp?expires=1764001000&signature=Xk2…",
                     *           "url_expires_at": 1764000994,
                     *           "content_type": "image/webp",
                     *           "width": 2048,
                     *           "height": 1536
                     *         }
                     *       ],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 0
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086494
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description `parameter_invalid`: An unknown or invalid parameter (`param` names it). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `resource_not_found`: Unknown, deleted (13 months after creation) or foreign generation (another organization or mode). */
            404: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "generations-list": {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                after?: string;
                /** @description Only generations of this type. */
                type?: "render" | "edit" | "decoration" | "upscale";
                /** @description Only generations in this status. */
                status?: "in_progress" | "succeeded" | "failed" | "canceled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "generation",
                     *           "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *           "type": "render",
                     *           "status": "succeeded",
                     *           "progress": 1,
                     *           "cancelable": false,
                     *           "livemode": false,
                     *           "created_at": 1764000000,
                     *           "completed_at": 1764000094,
                     *           "input": {
                     *             "quality": "2k",
                     *             "scale": null,
                     *             "style": "scandinavian"
                     *           },
                     *           "output": [
                     *             {
                     *               "url": "https://roomtone.example/files/gen_3kTq9ZbX2mPw7LrV1sNc8YdA/0.webp?expires=1764001000&signature=Xk2…",
                     *               "url_expires_at": 1764000994,
                     *               "content_type": "image/webp",
                     *               "width": 2048,
                     *               "height": 1536
                     *             }
                     *           ],
                     *           "error": null,
                     *           "cost": {
                     *             "amount": 30,
                     *             "currency": "eur",
                     *             "unit": "cents",
                     *             "discount_percent": 0,
                     *             "amount_refunded": 0
                     *           },
                     *           "metadata": {
                     *             "project": "loft-12"
                     *           },
                     *           "expires_at": 1764086494
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["GenerationList"];
                };
            };
            /** @description `parameter_invalid`: Invalid `limit` (1 to 100), `after` (the id of a generation you listed), `type` or `status` (`param` names it). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "generations-cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The generation id (gen_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "generation",
                     *       "id": "gen_3kTq9ZbX2mPw7LrV1sNc8YdA",
                     *       "type": "render",
                     *       "status": "canceled",
                     *       "progress": 0.42,
                     *       "cancelable": false,
                     *       "livemode": false,
                     *       "created_at": 1764000000,
                     *       "completed_at": 1764000002,
                     *       "input": {
                     *         "quality": "2k",
                     *         "scale": null,
                     *         "style": "scandinavian"
                     *       },
                     *       "output": [],
                     *       "error": null,
                     *       "cost": {
                     *         "amount": 30,
                     *         "currency": "eur",
                     *         "unit": "cents",
                     *         "discount_percent": 0,
                     *         "amount_refunded": 30
                     *       },
                     *       "metadata": {
                     *         "project": "loft-12"
                     *       },
                     *       "expires_at": 1764086400
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description `parameter_invalid`: An unknown or invalid parameter (`param` names it). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks `generations_read` or the permission of the generation’s type (renders, edits, decorations or upscales).
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `resource_not_found`: Unknown, deleted or foreign generation. */
            404: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `generation_not_cancelable`: Processing has started, or the generation has ended. */
            409: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reference-styles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "style",
                     *           "id": "scandinavian",
                     *           "name": "Scandinavian",
                     *           "description": "Light woods, soft whites, wool and linen."
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["StyleList"];
                };
            };
            /** @description `parameter_invalid`: An unknown or invalid parameter (`param` names it). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reference-editMaterialCategories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "edit_material_category",
                     *           "id": "flooring",
                     *           "name": "Flooring",
                     *           "description": "Wood, parquet, concrete, terracotta and natural-fibre floor finishes."
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["EditMaterialCategoryList"];
                };
            };
            /** @description `parameter_invalid`: An unknown or invalid parameter (`param` names it). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "reference-editMaterials": {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description The id of the last object of the previous page. */
                after?: string;
                /** @description Only materials of this category (an id from GET /v1/edit-material-categories). */
                category?: string;
                /** @description Filter by category or by name (case-insensitive). */
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "edit_material",
                     *           "id": "mat_oak_herringbone",
                     *           "name": "Natural Oak Herringbone",
                     *           "description": "Honey-toned European oak blocks laid in a classic herringbone at 45°.",
                     *           "category": "flooring"
                     *         }
                     *       ],
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["EditMaterialList"];
                };
            };
            /** @description `parameter_invalid`: Invalid `limit` (1 to 100), `after` (the id of a material you listed), unknown `category`, or `search` over 100 characters (`param` names it). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "prices-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "price",
                     *           "type": "render",
                     *           "quality": "2k",
                     *           "scale": null,
                     *           "amount": 27,
                     *           "list_amount": 30,
                     *           "discount_percent": 10,
                     *           "currency": "eur",
                     *           "unit": "cents"
                     *         },
                     *         {
                     *           "object": "price",
                     *           "type": "upscale",
                     *           "quality": null,
                     *           "scale": "x2",
                     *           "amount": 9,
                     *           "list_amount": 10,
                     *           "discount_percent": 10,
                     *           "currency": "eur",
                     *           "unit": "cents"
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["PriceList"];
                };
            };
            /** @description `parameter_invalid`: An unknown or invalid parameter (`param` names it). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "balance-retrieve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "balance",
                     *       "amount": 12450,
                     *       "currency": "eur",
                     *       "unit": "cents",
                     *       "monthly_limit": 50000,
                     *       "monthly_spend": 3120
                     *     }
                     */
                    "application/json": components["schemas"]["AccountBalance"];
                };
            };
            /** @description `parameter_invalid`: An unknown or invalid parameter (`param` names it). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key lacks the permission this route needs.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "events-trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "generation.succeeded" | "generation.failed" | "generation.canceled";
                };
            };
        };
        responses: {
            /** @description Successful response */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "triggered_event",
                     *       "type": "generation.succeeded",
                     *       "event_id": "evt_9Qm2xR7tLpW4nZ8kB3vC6dYs",
                     *       "endpoints": 1,
                     *       "event_stream": true
                     *     }
                     */
                    "application/json": components["schemas"]["TriggeredEvent"];
                };
            };
            /** @description `parameter_invalid`: `type` is missing or not a test-mode event type (generation.succeeded, generation.failed, generation.canceled). */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key is a live key (test events are test mode only) or lacks `generations_read`.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the same envelope. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "events-stream": {
        parameters: {
            query?: {
                /** @description Comma-separated event types to receive; default: every test-mode type (generation.succeeded, generation.failed, generation.canceled). */
                events?: string;
            };
            header?: {
                /** @description Resume after this event (evt_…), as EventSource does on reconnection. */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of `text/event-stream` messages: `id: evt_…`, `event: <type>`, `data: <event body as JSON>`. */
            200: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example event: ready
                     *     data: {"object":"event_stream","livemode":false,"events":["generation.succeeded"]}
                     *
                     *     id: evt_9Qm2xR7tLpW4nZ8kB3vC6dYs
                     *     event: generation.succeeded
                     *     data: {"id":"evt_9Qm2xR7tLpW4nZ8kB3vC6dYs","type":"generation.succeeded","created_at":1764000094,"livemode":false,"data":{"object":{"object":"generation","id":"gen_3kTq9ZbX2mPw7LrV1sNc8YdA","status":"succeeded"}}}
                     */
                    "text/event-stream": string;
                };
            };
            /** @description `parameter_invalid`: An unknown event type in `events` (only generation events exist in test mode), or a malformed `Last-Event-ID`. */
            400: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_invalid`: The key is malformed, unknown or revoked.
             *
             *     `api_key_missing`: No `Authorization: Bearer <key>` header.
             */
            401: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description `api_key_ip_not_allowed`: The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.
             *
             *     `browser_request_refused`: The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.
             *
             *     `permission_denied`: The key is a live key (the stream serves test mode only) or lacks `generations_read`.
             */
            403: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limit_exceeded`: Request rate exceeded, or the organization already has 10 streams open. `Retry-After` gives the seconds to wait. */
            429: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal_error`: Unexpected: logged with the request-id. Retry later. */
            500: {
                headers: {
                    "request-id": components["headers"]["request-id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "webhook-generation.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["GenerationEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook-generation.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["GenerationEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook-generation.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["GenerationEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook-balance.low": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BalanceEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook-balance.recharge_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BalanceEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook-balance.expiring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BalanceEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
