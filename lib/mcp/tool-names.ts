/** The names of the discovery mode's tools, the same for every caller and every API. */

/** Finds operations by words. */
export const FIND_TOOL = 'find_operations'
/** Lists the areas, or an area's operations. */
export const BROWSE_TOOL = 'list_operations'
/** Says what an operation takes and which fields it can choose. */
export const DESCRIBE_TOOL = 'describe_operation'
/** Runs an operation. */
export const CALL_TOOL = 'call_operation'
