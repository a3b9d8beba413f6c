export const Button = () => null
