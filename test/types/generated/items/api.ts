export interface paths {
    "/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listItems"];
        put?: never;
        post: operations["createItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/items/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["createItems"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getNote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["createNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description As restricted responses send it: any field may be left out. */
        itemRestricted: {
            id?: number;
            name?: string;
            labels?: string[];
            owner?: {
                id?: number;
                name?: string;
            };
        };
        /** @description As this caller is sent it, complete: the record that a restricted response narrows. */
        itemVisible: {
            id: number;
            name: string;
            labels: string[];
            owner: {
                id: number;
                name: string;
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
        "Fields-12b8e1ed": "id" | "name" | "labels" | "owner" | "owner.id" | "owner.name" | "*";
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listItems: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-12b8e1ed"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-12b8e1ed"][];
                tag?: string[];
            };
            header?: never;
            path?: never;
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
                    "application/json": components["schemas"]["itemRestricted"][];
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
    createItem: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-12b8e1ed"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-12b8e1ed"][];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    labels?: string[];
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
                    "application/json": components["schemas"]["itemRestricted"];
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
    createItems: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field. */
                only?: components["schemas"]["Fields-12b8e1ed"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-12b8e1ed"][];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    labels?: string[];
                }[];
            };
        };
        responses: {
            /** @description Default Response. The `only` and `defer` query parameters choose the fields of each item; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["itemRestricted"][];
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
    getNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        text: string;
                    };
                };
            };
        };
    };
    createNote: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    text: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        text: string;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
        };
    };
}
