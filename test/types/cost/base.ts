// No selection: the cost of the record type alone.
import type { RouteFields } from '../../../lib/types/selection.js'
import type { Level1 } from './record.js'

export type Route = RouteFields<Level1[]>
