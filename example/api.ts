export interface paths {
    "/api/users/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the users, a page at a time
         * @description Pages hold 10 users, in id order. `next` and `previous` keep the query parameters as they were sent.
         */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one user
         * @description The user with this id, or a 404.
         */
        get: operations["getUser"];
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
        /** @description An error. */
        error: {
            statusCode: number;
            code?: string;
            error: string;
            message: string;
        };
        /** @description A user of the example API. As restricted responses send it: any field may be left out. */
        userRestricted: {
            /** @description Unique, from 1. */
            id?: number;
            name?: string;
            /** @description null when the user has given none. */
            email?: string | null;
            is_staff?: boolean;
            /** @description null when the user has no profile. */
            profile?: {
                city?: string;
            } | null;
            /** @description What the user wrote, oldest first. */
            posts?: {
                id?: number;
                title?: string;
            }[];
        };
        /** @description A user of the example API. As this caller is sent it, complete: the record that a restricted response narrows. */
        userVisible: {
            /** @description Unique, from 1. */
            id: number;
            name: string;
            /** @description null when the user has given none. */
            email: string | null;
            is_staff: boolean;
            /** @description null when the user has no profile. */
            profile: {
                city: string;
            } | null;
            /** @description What the user wrote, oldest first. */
            posts: {
                id: number;
                title: string;
            }[];
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
        "Fields-71e64ed6": "id" | "name" | "email" | "is_staff" | "profile" | "profile.city" | "posts" | "posts.id" | "posts.title" | "*" | "@summary";
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
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). Field sets mix with names (only=@name,a): * is every field; @summary is id, name. */
                only?: components["schemas"]["Fields-71e64ed6"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-71e64ed6"][];
                /** @description A page number from 1, or 'last'; absent means 1 */
                page?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users, with the links to its neighbours. The `only` and `defer` query parameters choose the fields of each record in `results`; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The number of users on every page together. */
                        count: number;
                        /** @description The next page, with the same query parameters; null on the last page. */
                        next: string | null;
                        /** @description The previous page, with the same query parameters; null on the first page. */
                        previous: string | null;
                        results: components["schemas"]["userRestricted"][];
                    };
                };
            };
            /** @description A malformed page. Also sent when a restriction parameter is invalid. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error"] | components["schemas"]["RestrictedFieldsError"];
                };
            };
            /** @description An Authorization header without the staff bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error"];
                };
            };
            /** @description A page past the last one. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: {
                /** @description Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). Field sets mix with names (only=@name,a): * is every field; @summary is id, name. */
                only?: components["schemas"]["Fields-71e64ed6"][];
                /** @description Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only. */
                defer?: components["schemas"]["Fields-71e64ed6"][];
            };
            header?: never;
            path: {
                /** @description The id of the user. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. The `only` and `defer` query parameters choose its fields; a field they leave out is absent. Some fields are hidden from some requests, which are answered as if those fields were not declared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["userRestricted"];
                };
            };
            /** @description An id that is not a positive integer. Also sent when a restriction parameter is invalid. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error"] | components["schemas"]["RestrictedFieldsError"];
                };
            };
            /** @description An Authorization header without the staff bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error"];
                };
            };
            /** @description No user has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["error"];
                };
            };
        };
    };
}
