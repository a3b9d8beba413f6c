// Asks the Express API, through Vite's /api proxy, for its greeting.
const response = await fetch('/api/hello')
const body = await response.json()
document.querySelector('#message').textContent = `${body.message} (pid ${body.pid})`
