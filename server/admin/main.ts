/**
 * Entry of `npm run admin -- <command>` (server/admin/adminCommand.ts has the commands). Reads
 * DATA_DIR and DATABASE_URL through the server's own loadConfig, migrates like a starting server
 * (so the command works on a database the server has not opened since an upgrade), runs one
 * command and exits with its code.
 */
import os from 'node:os';
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest } from '../db/migrate';
import { openDatabase } from '../db/openDatabase';
import { systemClock } from '../services/Clock';
import { type AdminLog, AdminService } from './AdminService';
import { runAdminCommand } from './adminCommand';

/** One JSON line per change on stderr, in the server's log shape (pino's level 30 is info). */
const jsonLog: AdminLog = {
  info: (fields, msg) => process.stderr.write(`${JSON.stringify({ level: 30, time: Date.now(), ...fields, msg })}\n`),
};

async function main(argv: string[]): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const { db } = openDatabase(config);
  try {
    await migrateToLatest(db);
    const admin = new AdminService(db, systemClock, jsonLog, os.userInfo().username, config.plans);
    return await runAdminCommand(argv, admin, {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
