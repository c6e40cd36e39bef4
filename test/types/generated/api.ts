export interface paths {
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listUsers"];
        put?: never;
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["replaceUser"];
        post?: never;
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        patch: operations["updateUser"];
        trace?: never;
    };
    "/shallow/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getShallow"];
        put?: never;
        post?: never;
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
        userRestricted: {
            id?: number;
            name?: string;
            email?: string | null;
            address?: {
                city?: string;
                geo?: {
                    lat?: number;
                };
            };
        };
        /** @description As this caller is sent it, complete: the record that a restricted response narrows. */
        userVisible: {
            id: number;
            name: string;
            email: string | null;
            address: {
                city: string;
                geo: {
                    lat: number;
                };
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
        "Fields-2857a285": "id" | "name" | "email" | "address" | "address.city" | "address.geo" | "address.geo.lat" | "*" | "@default" | "@summary";
        /** @enum {string} */
        "Fields-838f87af": "id" | "name" | "email" | "address" | "address.city" | "address.geo" | "address.geo.lat" | "*" | "@summary";
        updateUserRecord202: {
            id: number;
            status: string;
            note?: string;
        };
        /** @enum {string} */
        "Fields-58a2d3d5": "id" | "name" | "email" | "address" | "address.city" | "address.geo" | "address.geo.lat" | "status" | "note" | "*" | "@summary";
        /** @enum {string} */
        "Fields-9a8fd48a": "id" | "name" | "email" | "address" | "address.city" | "address.geo" | "*" | "@summary";
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listUsers: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). Field sets mix with names (only=@name,a): * is every field; @default, sent without only, is id; @summary is id, name. */
                only?: components["schemas"]["Fields-2857a285"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-2857a285"][];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response. The `only` and `defer` query parameters choose the fields of each record in `items`; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        total: number;
                        items: components["schemas"]["userRestricted"][];
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
    createUser: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). Field sets mix with names (only=@name,a): * is every field; @summary is id, name. */
                only?: components["schemas"]["Fields-838f87af"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-838f87af"][];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    email?: string;
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
                    "application/json": components["schemas"]["userRestricted"];
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
    replaceUser: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). Field sets mix with names (only=@name,a): * is every field; @summary is id, name. */
                only?: components["schemas"]["Fields-838f87af"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-838f87af"][];
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    email?: string;
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
                    "application/json": components["schemas"]["userRestricted"];
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
    deleteUser: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). Field sets mix with names (only=@name,a): * is every field; @summary is id, name. */
                only?: components["schemas"]["Fields-838f87af"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-838f87af"][];
            };
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["userRestricted"];
                };
            };
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    updateUser: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). Field sets mix with names (only=@name,a): * is every field; @summary is id, name. */
                only?: components["schemas"]["Fields-58a2d3d5"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-58a2d3d5"][];
            };
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["userRestricted"];
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
                        status?: string;
                        note?: string;
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
    getShallow: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). Field sets mix with names (only=@name,a): * is every field; @summary is id, name. */
                only?: components["schemas"]["Fields-9a8fd48a"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-9a8fd48a"][];
            };
            header?: never;
            path: {
                id: number;
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
                    "application/json": components["schemas"]["userRestricted"];
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
