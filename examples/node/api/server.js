// The API of the node example: a small Express app on $PORT, which procs
// sets from `port:` in procs.yaml. Its "listening on" line is what procs'
// express preset waits for.
import express from 'express'

const port = Number(process.env.PORT || 3000)
const app = express()

app.get('/api/hello', (req, res) => {
  res.json({ message: 'hello from express', pid: process.pid })
})

app.listen(port, '127.0.0.1', () => {
  console.log(`api listening on http://127.0.0.1:${port}`)
})
