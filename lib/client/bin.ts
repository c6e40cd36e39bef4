#!/usr/bin/env node
// The `fastify-restricted-fields` command: its work is in command.ts, run here with the process's arguments and streams.
import { processIo, runCommand } from './command.js'

process.exitCode = await runCommand(process.argv.slice(2), processIo)
