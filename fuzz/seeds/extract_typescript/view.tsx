import React from "react";
export const List = ({ items }: { items: string[] }) => (
  <ul className="x">{items.map((i) => <Item key={i} label={i} onClick={() => select(i)} />)}</ul>
);
export default function Item(props: { label: string }) { return <li>{props.label}</li>; }
