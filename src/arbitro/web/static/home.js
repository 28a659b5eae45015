// The home page: create a game through the API and show its four links.
const form = document.getElementById("new-game")
const error = document.getElementById("form-error")

for (const button of document.querySelectorAll(".preset")) {
  button.addEventListener("click", () => {
    document.getElementById("time_control").value = button.dataset.tc
  })
}

form.addEventListener("submit", async (event) => {
  event.preventDefault()
  error.textContent = ""
  const body = Object.fromEntries(new FormData(form).entries())
  const lang = document.documentElement.lang
  const response = await fetch(`/api/games?lang=${lang}`, {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  })
  const data = await response.json()
  if (!response.ok) {
    error.textContent = data.error ? data.error.full : JSON.stringify(data.detail)
    return
  }
  for (const role of ["white", "black", "arbiter", "spectator"]) {
    const link = document.getElementById(`link-${role}`)
    link.href = data[role]
    link.textContent = data[role]
  }
  const links = document.getElementById("links")
  links.hidden = false
  links.querySelector("h2").setAttribute("tabindex", "-1")
  links.querySelector("h2").focus()
})
