// Asks the API (through Vite's /api proxy) for the rows and shows them, with
// where they came from: Postgres on a cold cache, Redis after that.
const response = await fetch('/api/items')
const body = await response.json()
document.querySelector('#source').textContent = `served from ${body.source}`
document.querySelector('#items').replaceChildren(
  ...body.items.map((item) => {
    const li = document.createElement('li')
    li.textContent = item.name
    return li
  }),
)
