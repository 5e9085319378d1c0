// Imported first by the worker and the scripts, so .env is read before anything asks env().
import { loadEnvFile } from "./load-env-file.server";

loadEnvFile();
