export interface paths {
    "/repos/{owner}/issues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listIssues"];
        put?: never;
        post: operations["createIssue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/repos/{owner}/labels/{label}/issues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listLabelIssues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/repos/{owner}/issues/{number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["replaceIssue"];
        post?: never;
        delete: operations["deleteIssue"];
        options?: never;
        head?: never;
        patch: operations["updateIssue"];
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description As restricted responses send it: any field may be left out. */
        issueRestricted: {
            id?: number;
            number?: number;
            title?: string;
            body?: string;
            /** @enum {string} */
            state?: "open" | "closed";
            labels?: ("bug" | "feature" | "docs")[];
            user?: {
                id?: number;
                login?: string;
            };
        };
        /** @description As this caller is sent it, complete: the record that a restricted response narrows. */
        issueVisible: {
            id: number;
            number: number;
            title: string;
            body?: string;
            /** @enum {string} */
            state: "open" | "closed";
            labels: ("bug" | "feature" | "docs")[];
            user: {
                id: number;
                login: string;
            };
        };
        /** @description A restriction parameter names an undeclared field, is malformed, names too many fields, has too deep a path or names an unknown field set. */
        RestrictedFieldsError: {
            /** @enum {integer} */
            statusCode: 400;
            /** @enum {string} */
            code: "FST_RESTRICTED_FIELDS_UNKNOWN_FIELD" | "FST_RESTRICTED_FIELDS_INVALID_PARAMETER" | "FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS" | "FST_RESTRICTED_FIELDS_PATH_TOO_DEEP" | "FST_RESTRICTED_FIELDS_UNKNOWN_FIELD_SET";
            error: string;
            message: string;
        };
        /** @enum {string} */
        "Fields-9339398f": "id" | "number" | "title" | "state" | "labels" | "user" | "user.id" | "user.login" | "body" | "*";
        updateIssueRecord202: {
            id: number;
            /** @enum {string} */
            state: "open" | "closed";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listIssues: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-9339398f"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-9339398f"][];
                state?: "open" | "closed" | "all";
                sort?: "created" | "updated" | "comments";
                direction?: "asc" | "desc";
                per_page?: number;
                pinned?: boolean;
                labels?: ("bug" | "feature" | "docs")[];
            };
            header?: never;
            path: {
                owner: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response. The `only` and `defer` query parameters choose the fields of each item; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["issueRestricted"][];
                };
            };
            /** @description Bad Request: a restriction parameter is invalid (`code` says how). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RestrictedFieldsError"];
                };
            };
        };
    };
    createIssue: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-9339398f"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-9339398f"][];
                notify?: "all" | "none";
            };
            header?: never;
            path: {
                owner: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    /** @enum {string} */
                    state?: "open" | "closed";
                    labels?: ("bug" | "feature" | "docs")[];
                    priority?: number;
                    locked?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response. The `only` and `defer` query parameters choose its fields; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["issueRestricted"];
                };
            };
            /** @description Bad Request: a restriction parameter is invalid (`code` says how). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RestrictedFieldsError"];
                };
            };
        };
    };
    listLabelIssues: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-9339398f"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-9339398f"][];
                state?: "open" | "closed" | "all";
                sort?: "created" | "updated" | "comments";
                direction?: "asc" | "desc";
                per_page?: number;
                pinned?: boolean;
                labels?: ("bug" | "feature" | "docs")[];
            };
            header?: never;
            path: {
                owner: string;
                label: "bug" | "feature" | "docs";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response. The `only` and `defer` query parameters choose the fields of each item; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["issueRestricted"][];
                };
            };
            /** @description Bad Request: a restriction parameter is invalid (`code` says how). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RestrictedFieldsError"];
                };
            };
        };
    };
    replaceIssue: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-9339398f"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-9339398f"][];
                mode?: "replace" | "merge";
            };
            header?: never;
            path: {
                owner: string;
                number: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    /** @enum {string} */
                    state?: "open" | "closed";
                    labels?: ("bug" | "feature" | "docs")[];
                    priority?: number;
                    locked?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response. The `only` and `defer` query parameters choose its fields; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["issueRestricted"];
                };
            };
            /** @description Bad Request: a restriction parameter is invalid (`code` says how). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RestrictedFieldsError"];
                };
            };
        };
    };
    deleteIssue: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-9339398f"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-9339398f"][];
                reason?: "completed" | "not_planned";
            };
            header?: never;
            path: {
                owner: string;
                number: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response. The `only` and `defer` query parameters choose its fields; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["issueRestricted"];
                };
            };
            /** @description Bad Request: a restriction parameter is invalid (`code` says how). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RestrictedFieldsError"];
                };
            };
        };
    };
    updateIssue: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-9339398f"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-9339398f"][];
            };
            header?: never;
            path: {
                owner: string;
                number: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    state?: "open" | "closed";
                    /** @enum {string} */
                    state_reason?: "completed" | "not_planned" | "reopened";
                };
            };
        };
        responses: {
            /** @description Default Response. The `only` and `defer` query parameters choose its fields; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["issueRestricted"];
                };
            };
            /** @description Default Response. The `only` and `defer` query parameters choose its fields; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id?: number;
                        /** @enum {string} */
                        state?: "open" | "closed";
                    };
                };
            };
            /** @description Bad Request: a restriction parameter is invalid (`code` says how). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RestrictedFieldsError"];
                };
            };
        };
    };
}
