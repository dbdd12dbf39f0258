import { benchServers } from '../data/bench-servers.ts'
import { ensureDataset } from '../data/ensure-dataset.ts'
import { skewedRecipe } from '../skewed/skewed-dataset.ts'
const servers = benchServers(process.env)
const dialect = process.argv[2] as 'sqlite' | 'postgres' | 'mysql'
const db = await ensureDataset(dialect, skewedRecipe(), servers, (l) => console.log(l))
await db.knex.destroy()
